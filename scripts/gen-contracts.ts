/**
 * Contract generator.
 *
 *   tsx scripts/gen-contracts.ts [<public_api.swagger.json> [<auth_proxy.swagger.json>]]
 *
 * Reads the published Swagger 2.0 documents and writes our own contract modules to
 * contracts/generated/:
 *   - public-api.ts / auth-proxy.ts : zod schemas for every definition (names, types,
 *     enums, required flags only: no descriptions or other prose is carried over) and an
 *     operation table (path -> request/response schema, activity type, intent/result member);
 *   - openapi.json : an OpenAPI 3.1 document built from the same model, which the emulator
 *     serves at /openapi.json and from which openapi-typescript derives static types.
 *
 * The documents' paths come from the command line, else from TURNKEY_API_DOCUMENT and
 * TURNKEY_AUTH_PROXY_DOCUMENT; nothing outside the repository is looked for. `generateContracts` returns the files' texts without writing
 * them (scripts/gen-contracts.test.ts compares them with the checked-in files).
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildModel, type ContractModel } from "./contracts-model.js";
import { emitZodModule } from "./contracts-emit-zod.js";
import { emitOpenApi } from "./contracts-emit-openapi.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const generatedDir = join(root, "contracts", "generated");

/** File name (in contracts/generated/) -> text, from the parsed API documents. */
export function generateContracts(publicApiDoc: unknown, authProxyDoc?: unknown): Map<string, string> {
  const files = new Map<string, string>();
  const coordinator = buildModel(publicApiDoc, "coordinator");
  files.set("public-api.ts", emitZodModule(coordinator));
  const models: ContractModel[] = [coordinator];
  if (authProxyDoc !== undefined) {
    const proxy = buildModel(authProxyDoc, "proxy");
    files.set("auth-proxy.ts", emitZodModule(proxy));
    models.push(proxy);
  }
  files.set("openapi.json", JSON.stringify(emitOpenApi(models), null, 1) + "\n");
  return files;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Arguments first, then the environment. */
function documentPaths(argv: string[]): [string | undefined, string | undefined] {
  if (argv.length > 0) return [argv[0], argv[1]];
  return [process.env.TURNKEY_API_DOCUMENT, process.env.TURNKEY_AUTH_PROXY_DOCUMENT];
}

function main(argv: string[]): void {
  const [publicApi, authProxy] = documentPaths(argv);
  if (!publicApi) {
    console.error(
      "usage: gen-contracts <public_api.swagger.json> [<auth_proxy.swagger.json>]\n" +
        "   or: TURNKEY_API_DOCUMENT=... [TURNKEY_AUTH_PROXY_DOCUMENT=...] gen-contracts",
    );
    process.exit(2);
  }
  const files = generateContracts(readJson(publicApi), authProxy ? readJson(authProxy) : undefined);
  mkdirSync(generatedDir, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(generatedDir, name), text);
  console.log(`contracts from ${[publicApi, authProxy].filter(Boolean).join(" and ")}: ${[...files.keys()].join(", ")} -> ${generatedDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
