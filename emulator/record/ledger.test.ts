import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LEDGER_RULES, rowsTouched } from "./ledger.js";

const LEDGER = readFileSync(join(import.meta.dirname, "..", "..", "docs", "fidelity.md"), "utf8");
const rowIds = new Set([...LEDGER.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!));

describe("ledger rules", () => {
  it("name rows docs/fidelity.md has", () => {
    expect(rowIds.size).toBeGreaterThan(40);
    expect(Object.keys(LEDGER_RULES).filter((id) => !rowIds.has(id))).toEqual([]);
  });

  it("find the rows an exchange touches by operation, activity type, request and either side's message", () => {
    const denial = { status: 403, body: { code: 7, message: "request not authorized: policy denied", details: [{ turnkeyErrorCode: "REQUEST_NOT_AUTHORIZED" }] } };
    expect(rowsTouched({ operation: "submit create_wallet", request: { type: "ACTIVITY_TYPE_CREATE_WALLET" }, session: false, answers: [{ status: 200, body: {} }, denial] })).toEqual(["denial-recorded-failed", "error-code-per-message"]);
    expect(rowsTouched({ operation: "submit create_policy", request: { type: "ACTIVITY_TYPE_CREATE_POLICY_V2" }, session: false, answers: [{ status: 200, body: {} }] })).toEqual(["policy-selectors"]);
    expect(rowsTouched({ operation: "query get_wallets", request: { organization_id: "o" }, session: true, answers: [{ status: 200, body: {} }] })).toEqual(["proto-json-mapping", "read-only-session"]);
    expect(rowsTouched({ operation: "submit create_wallet", request: {}, session: false, answers: [{ status: 400, body: { message: "organization mismatch: request is targeting organization (\"a\")" } }] })).toEqual(["cross-org-activity"]);
    expect(rowsTouched({ operation: "query whoami", request: { organizationId: "o" }, session: false, answers: [{ status: 200, body: {} }] })).toEqual([]);
  });
});
