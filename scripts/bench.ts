/**
 * `npm run bench [-- <section> ...] [--quick]`: runs the named benchmark sections (by default
 * the issue-17 ones: start, sign, state, many; `all` adds the older ones). Every figure is printed next to a baseline
 * measured in the same run and, where the issue sets one, its goal; a summary table of
 * all figures ends the run. `--quick` takes smaller sizes so that the whole run takes minutes.
 */
import { benchFoundation } from "./bench/foundation.js";
import { benchWallets } from "./bench/wallets.js";
import { benchSigning } from "./bench/signing.js";
import { benchSnapshots } from "./bench/snapshots.js";
import { benchNetworks } from "./bench/networks.js";
import { benchSoak } from "./bench/soak.js";
import { benchRequestPath } from "./bench/request-path.js";
import { benchStart } from "./bench/start.js";
import { benchState } from "./bench/state.js";
import { benchMany } from "./bench/many.js";
import { benchWebhooks } from "./bench/webhooks.js";
import { benchPool } from "./bench/pool.js";
import { cpus, loadavg } from "node:os";
import { printSummary } from "./bench/report.js";

const speed: Record<string, () => Promise<void>> = { start: benchStart, sign: benchRequestPath, state: benchState, many: benchMany };
const older: Record<string, () => Promise<void>> = { foundation: benchFoundation, wallets: benchWallets, signing: benchSigning, snapshots: benchSnapshots, networks: benchNetworks, soak: benchSoak, webhooks: benchWebhooks, pool: benchPool };
const sections: Record<string, () => Promise<void>> = { ...speed, ...older };
// Section names; flags (`--duration 20` for the soak, `--quick`) are read by the sections themselves.
const args = process.argv.slice(2);
const named = args.filter((a, i) => a !== "--" && !a.startsWith("--") && args[i - 1] !== "--duration");
for (const name of named) if (!sections[name] && name !== "all") throw new Error(`unknown benchmark ${name}; choose from all, ${Object.keys(sections).join(", ")}`);
const wanted = named.includes("all") ? Object.keys(sections) : named.length ? named : Object.keys(speed);
console.log(`node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the start`);
for (const name of wanted) await sections[name]!();
printSummary();
