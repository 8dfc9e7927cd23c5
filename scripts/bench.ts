/**
 * `npm run bench [-- foundation|wallets|signing ...]`: runs the named benchmark sections
 * (all by default). Every figure is printed next to a baseline measured in the same run.
 */
import { benchFoundation } from "./bench/foundation.js";
import { benchWallets } from "./bench/wallets.js";
import { benchSigning } from "./bench/signing.js";
import { benchSnapshots } from "./bench/snapshots.js";
import { benchNetworks } from "./bench/networks.js";
import { benchSoak } from "./bench/soak.js";

const sections: Record<string, () => Promise<void>> = { foundation: benchFoundation, wallets: benchWallets, signing: benchSigning, snapshots: benchSnapshots, networks: benchNetworks, soak: benchSoak };
// Section names; flags (`--duration 20` for the soak) are read by the sections themselves.
const args = process.argv.slice(2);
const wanted = args.filter((a, i) => a !== "--" && !a.startsWith("--") && args[i - 1] !== "--duration");
for (const name of wanted) if (!sections[name]) throw new Error(`unknown benchmark ${name}; choose from ${Object.keys(sections).join(", ")}`);
for (const name of wanted.length ? wanted : Object.keys(sections)) await sections[name]!();
