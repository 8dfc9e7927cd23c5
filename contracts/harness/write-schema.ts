/** Writes scenarios/scenario.schema.json from the zod format: `npx tsx contracts/harness/write-schema.ts`. */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { scenarioJsonSchema } from "./format.js";
import { packageRoot } from "../../emulator/core/package-root.js";

export const SCHEMA_PATH = join(packageRoot(), "scenarios", "scenario.schema.json");
export const schemaText = (): string => JSON.stringify(scenarioJsonSchema(), null, 2) + "\n";

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_PATH, schemaText());
  console.log(`wrote ${SCHEMA_PATH}`);
}
