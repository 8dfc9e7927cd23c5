/**
 * Contract generator.
 *
 *   tsx scripts/gen-contracts.ts <public_api.swagger.json> [<auth_proxy.swagger.json>]
 *
 * Reads the published Swagger 2.0 documents given on the command line and writes our own
 * contract modules to contracts/generated/:
 *   - public-api.ts / auth-proxy.ts : zod schemas for every definition (names, types,
 *     enums, required flags only: no descriptions or other prose is carried over) and an
 *     operation table (path -> request/response schema, activity type, intent/result member);
 *   - openapi.json : an OpenAPI 3.1 document built from the same model, which the emulator
 *     serves at /openapi.json and from which openapi-typescript derives static types.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildModel, type ContractModel } from "./contracts-model.js";
import { emitZodModule } from "./contracts-emit-zod.js";
import { emitOpenApi } from "./contracts-emit-openapi.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "contracts", "generated");

function main(argv: string[]): void {
  const [publicApi, authProxy] = argv;
  if (!publicApi) {
    console.error("usage: gen-contracts <public_api.swagger.json> [<auth_proxy.swagger.json>]");
    process.exit(2);
  }
  mkdirSync(outDir, { recursive: true });
  const coordinator = buildModel(JSON.parse(readFileSync(publicApi, "utf8")), "coordinator");
  write("public-api.ts", emitZodModule(coordinator));
  const models: ContractModel[] = [coordinator];
  if (authProxy) {
    const proxy = buildModel(JSON.parse(readFileSync(authProxy, "utf8")), "proxy");
    write("auth-proxy.ts", emitZodModule(proxy));
    models.push(proxy);
  }
  write("openapi.json", JSON.stringify(emitOpenApi(models), null, 1) + "\n");
  const ops = models.reduce((n, m) => n + m.operations.length, 0);
  const defs = models.reduce((n, m) => n + m.definitions.size, 0);
  console.log(`contracts: ${defs} schemas, ${ops} operations -> ${outDir}`);
}

function write(name: string, text: string): void {
  writeFileSync(join(outDir, name), text);
}

main(process.argv.slice(2));
