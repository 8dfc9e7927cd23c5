import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emitContracts, generateContracts, generatedDir, modelPath, parseModels } from "./gen-contracts.js";
import { generateTypes } from "./gen-types.js";

const apiDocument = process.env.TURNKEY_API_DOCUMENT;
const authProxyDocument = process.env.TURNKEY_AUTH_PROXY_DOCUMENT;
const haveDocuments = Boolean(apiDocument && authProxyDocument);
if (!haveDocuments) {
  console.info(
    "scripts/gen-contracts.test.ts: skipping the check of contracts/model.json against the API documents (the generated files are still checked against the model); run it with\n" +
      "  TURNKEY_API_DOCUMENT=path/to/public_api.swagger.json TURNKEY_AUTH_PROXY_DOCUMENT=path/to/auth_proxy.swagger.json npx vitest run scripts/gen-contracts.test.ts",
  );
}

const checkedIn = (name: string) => readFileSync(join(generatedDir, name), "utf8");

/** The first line where two texts differ, for a readable failure instead of a megabyte diff. */
function firstDifference(expected: string, actual: string): string | undefined {
  if (expected === actual) return undefined;
  const a = expected.split("\n");
  const b = actual.split("\n");
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? a.length : i;
  return `line ${at + 1}:\n  checked in: ${(a[at] ?? "<end of file>").slice(0, 300)}\n  generated:  ${(b[at] ?? "<end of file>").slice(0, 300)}`;
}

describe("checked-in generated contracts", () => {
  it("public-api.ts, auth-proxy.ts and openapi.json are what gen-contracts emits from contracts/model.json", () => {
    const files = emitContracts(parseModels(readFileSync(modelPath, "utf8")));
    expect([...files.keys()].sort()).toEqual(["auth-proxy.ts", "openapi.json", "public-api.ts"]);
    for (const [name, text] of files) {
      expect(firstDifference(checkedIn(name), text), `contracts/generated/${name} is stale: run npm run gen:contracts`).toBeUndefined();
    }
  });

  it.skipIf(!haveDocuments)("contracts/model.json and every generated file are what gen-contracts makes of the API documents and @turnkey/http's declarations", () => {
    const files = generateContracts(
      JSON.parse(readFileSync(apiDocument!, "utf8")),
      JSON.parse(readFileSync(authProxyDocument!, "utf8")),
    );
    expect([...files.keys()].sort()).toEqual(["../model.json", "auth-proxy.ts", "openapi.json", "public-api.ts"]);
    for (const [name, text] of files) {
      expect(firstDifference(checkedIn(name), text), `contracts/${name.replace("../", "")} is stale: run npm run gen:contracts -- <documents>`).toBeUndefined();
    }
  });

  it("openapi-types.ts is what gen-types emits from the checked-in openapi.json", async () => {
    const text = await generateTypes(checkedIn("openapi.json"));
    expect(firstDifference(checkedIn("openapi-types.ts"), text), "contracts/generated/openapi-types.ts is stale: run npm run gen:types").toBeUndefined();
  });
});
