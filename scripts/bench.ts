/**
 * `npm run bench [-- foundation|wallets|signing ...]`: runs the named benchmark sections
 * (all by default). Every figure is printed next to a baseline measured in the same run.
 */
import { benchFoundation } from "./bench/foundation.js";
import { benchWallets } from "./bench/wallets.js";
import { benchSigning } from "./bench/signing.js";
import { benchSnapshots } from "./bench/snapshots.js";
import { benchNetworks } from "./bench/networks.js";

const sections: Record<string, () => Promise<void>> = { foundation: benchFoundation, wallets: benchWallets, signing: benchSigning, snapshots: benchSnapshots, networks: benchNetworks };
const wanted = process.argv.slice(2).filter((a) => a !== "--");
for (const name of wanted) if (!sections[name]) throw new Error(`unknown benchmark ${name}; choose from ${Object.keys(sections).join(", ")}`);
for (const name of wanted.length ? wanted : Object.keys(sections)) await sections[name]!();
