/**
 * Contract generator.
 *
 *   npm run gen:contracts -- <public_api.swagger.json> <auth_proxy.swagger.json>   from the documents
 *   npm run gen:contracts                                                          from contracts/model.json
 *
 * Reads the published Swagger 2.0 documents, adds what the installed `@turnkey/http` client
 * knows beyond them (its generated types: operations newer than any document, see
 * contracts-sdk-declarations.ts), and writes:
 *   - contracts/model.json : the prose-free model of both surfaces (names, types, enums,
 *     required flags, operations), the one input of the emitters below, checked in so that CI
 *     can check every generated file against it without the documents;
 *   - contracts/generated/public-api.ts, auth-proxy.ts : zod schemas for every definition and
 *     an operation table (path -> request/response schema, activity type, intent/result member);
 *   - contracts/generated/openapi.json : an OpenAPI 3.1 document built from the same model, which
 *     the emulator serves at /openapi.json and from which openapi-typescript derives static types.
 *
 * The documents' paths come from the command line, else from TURNKEY_API_DOCUMENT and
 * TURNKEY_AUTH_PROXY_DOCUMENT; nothing outside the repository is looked for. Without either,
 * the files are emitted again from the checked-in model. `generateContracts` and
 * `emitContracts` return the files' texts without writing them (scripts/gen-contracts.test.ts
 * compares them with the checked-in files).
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildModel, type ContractModel, type Shape } from "./contracts-model.js";
import { emitZodModule } from "./contracts-emit-zod.js";
import { emitOpenApi } from "./contracts-emit-openapi.js";
import { readSdkDeclarations, supplementDocument } from "./contracts-sdk-declarations.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const generatedDir = join(root, "contracts", "generated");
export const modelPath = join(root, "contracts", "model.json");

/** The models of both surfaces from the parsed API documents, with what the SDK's declarations add to the coordinator's. */
export function modelsFromDocuments(publicApiDoc: unknown, authProxyDoc: unknown, sdk = readSdkDeclarations()): ContractModel[] {
  const { document } = supplementDocument(publicApiDoc, sdk);
  return [buildModel(document, "coordinator"), buildModel(authProxyDoc, "proxy")];
}

/** File name (in contracts/generated/) -> text, emitted from the models. */
export function emitContracts(models: ContractModel[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const model of models) files.set(model.surface === "coordinator" ? "public-api.ts" : "auth-proxy.ts", emitZodModule(model));
  files.set("openapi.json", JSON.stringify(emitOpenApi(models), null, 1) + "\n");
  return files;
}

/** The text of contracts/model.json: one definition or operation a line, so that a change reads as a small diff. */
export function serializeModels(models: ContractModel[]): string {
  const lines: string[] = ["["];
  models.forEach((m, i) => {
    lines.push(` {"surface": ${JSON.stringify(m.surface)},`, '  "definitions": {');
    const defs = [...m.definitions];
    defs.forEach(([name, shape], j) => lines.push(`   ${JSON.stringify(name)}: ${JSON.stringify(shape)}${j < defs.length - 1 ? "," : ""}`));
    lines.push("  },", '  "operations": [');
    m.operations.forEach((op, j) => lines.push(`   ${JSON.stringify(op)}${j < m.operations.length - 1 ? "," : ""}`));
    lines.push(`  ]}${i < models.length - 1 ? "," : ""}`);
  });
  lines.push("]");
  return lines.join("\n") + "\n";
}

export function parseModels(text: string): ContractModel[] {
  const raw = JSON.parse(text) as { surface: ContractModel["surface"]; definitions: Record<string, Shape>; operations: ContractModel["operations"] }[];
  return raw.map((m) => ({ surface: m.surface, definitions: new Map(Object.entries(m.definitions)), operations: m.operations }));
}

/** Every file the documents give: the model and what is emitted from it. */
export function generateContracts(publicApiDoc: unknown, authProxyDoc: unknown, sdk = readSdkDeclarations()): Map<string, string> {
  const models = modelsFromDocuments(publicApiDoc, authProxyDoc, sdk);
  return new Map([["../model.json", serializeModels(models)], ...emitContracts(models)]);
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
  if (publicApi && !authProxy) {
    console.error("usage: gen-contracts [<public_api.swagger.json> <auth_proxy.swagger.json>]  (none: emit again from contracts/model.json)");
    process.exit(2);
  }
  const files = publicApi && authProxy ? generateContracts(readJson(publicApi), readJson(authProxy)) : emitContracts(parseModels(readFileSync(modelPath, "utf8")));
  mkdirSync(generatedDir, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(generatedDir, name), text);
  const from = publicApi ? `${publicApi}, ${authProxy} and @turnkey/http's declarations` : "contracts/model.json";
  console.log(`contracts from ${from}: ${[...files.keys()].join(", ")} -> ${generatedDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
