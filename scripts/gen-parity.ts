/** Writes docs/parity.md from the operation registry and the scenarios. Usage: tsx scripts/gen-parity.ts */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadScenarios } from "../contracts/harness/load.js";
import { parityMarkdown, parityRows } from "../emulator/parity.js";
import { packageRoot } from "../emulator/core/package-root.js";

const root = packageRoot();
const rows = parityRows(loadScenarios([join(root, "scenarios")]));
writeFileSync(join(root, "docs", "parity.md"), parityMarkdown(rows));
console.log(`docs/parity.md: ${rows.filter((r) => r.emulated).length} of ${rows.length} operations emulated`);
