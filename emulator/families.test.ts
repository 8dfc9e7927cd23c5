/**
 * The registry against the published contract and the code layout: every entry is routed,
 * every route is either emulated or answers 501 with a reason. (Who may import a family's
 * modules is test/architecture/boundaries.test.ts's: another family only through its index.ts.)
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { coordinator, proxy } from "../contracts/index.js";
import { intents } from "../contracts/generated/public-api.js";
import { registry } from "./families.js";
import { notEmulatedError } from "./core/vocabulary/not-emulated.js";

const { activities, endpoints, entryFor, notEmulated, notEmulatedReason, operationForActivityType, policyOf, proxyForwardedActivityTypes, queries, resolveActivity, unroutedEntries } = registry;

const root = join(import.meta.dirname, "..");
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

describe("operation registry", () => {
  it("has an entry only for operations the contract routes", () => {
    expect(unroutedEntries().map((e) => `${e.kind} ${e.name}`)).toEqual([]);
  });

  it("covers both surfaces: every auth-proxy endpoint and most coordinator operations", () => {
    expect(endpoints.size).toBe(Object.keys(proxy).length);
    expect(activities.size + queries.size).toBeGreaterThan(90);
  });

  it("records reasons only for operations it does not emulate, and answers 501 naming operation and reason", () => {
    const stale = [...notEmulated.keys()].filter((name) => activities.has(name) || queries.has(name));
    expect(stale).toEqual([]);
    const op = coordinator["/public/v1/query/get_boot_proof"]!;
    expect(entryFor(op.kind, op.name)).toBeUndefined();
    expect(notEmulatedError(op, notEmulatedReason(op.name)).toJSON()).toMatchObject({ code: 12, message: expect.stringMatching(/^get_boot_proof is routed but not emulated: it needs a real enclave/) });
  });

  it("answers the policy taxonomy from the entries, the not-emulated declarations, then the residual rows", () => {
    expect(policyOf("ACTIVITY_TYPE_CREATE_WALLET")).toEqual({ resource: "WALLET", action: "CREATE", source: "documented" });
    expect(policyOf("CREATE_SUB_ORGANIZATION_V7")).toMatchObject({ resource: "ORGANIZATION", action: "CREATE" }); // an older type the entry accepts
    expect(policyOf("CREATE_SUB_ORGANIZATION")).toMatchObject({ resource: "ORGANIZATION", action: "CREATE" }); // an older version it maps
    // Each version's activity.params, as the published table gives them (language.mdx:603: `type` for V2 only).
    expect(policyOf("SIGN_TRANSACTION_V2")?.params).toEqual([["type", "type"]]);
    expect(policyOf("SIGN_TRANSACTION")).toEqual({ resource: "PRIVATE_KEY", action: "SIGN", source: "documented", params: [] });
    expect(policyOf("ACTIVITY_TYPE_SPARK_SIGN_FROST")).toEqual({ resource: "PRIVATE_KEY", action: "SIGN", source: "inferred", params: [["sign_with", "signWith"]] });
    expect(policyOf("ACTIVITY_TYPE_CREATE_ORGANIZATION")).toEqual({ resource: "ORGANIZATION", action: "CREATE", source: "inferred" }); // no operation routes it
    expect(policyOf("ACTIVITY_TYPE_ETH_UNDELEGATE7702")).toBeUndefined(); // an SDK spelling, recorded as ETH_UNDELEGATE_7702
    expect(policyOf("ACTIVITY_TYPE_APPROVE_ACTIVITY")).toBeUndefined();
  });

  it("accepts every older version a document defines at its family's path, but execute_swap's", () => {
    // execute_swap: "Requests must use ACTIVITY_TYPE_EXECUTE_SWAP_V2" (its description).
    const refused = new Set(["ACTIVITY_TYPE_EXECUTE_SWAP"]);
    const family = (type: string) => type.replace(/_V\d+$/, "");
    const version = (type: string) => Number(/_V(\d+)$/.exec(type)?.[1] ?? 1);
    const missing: string[] = [];
    let older = 0;
    for (const op of Object.values(coordinator)) {
      if (op.kind !== "submit" || !activities.has(op.name)) continue;
      for (const type of Object.keys(intents).filter((t) => family(t) === family(op.activityType!) && version(t) < version(op.activityType!))) {
        older++;
        if (resolveActivity(op, type).accepted === refused.has(type)) missing.push(`${op.name} ${type}`);
      }
    }
    expect(missing).toEqual([]);
    expect(older).toBe(32); // 31 accepted, execute_swap's first refused
    // A path reads its older type with that version's intent and runs it as the version the entry maps.
    const subOrg = coordinator["/public/v1/submit/create_sub_organization"]!;
    const v4 = resolveActivity(subOrg, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4");
    expect([v4.op.activityType, v4.op.intentKey, v4.op.resultKey]).toEqual(["ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4", "createSubOrganizationIntentV4", "createSubOrganizationResultV4"]);
    expect(v4.entry).toBe(activities.get("create_sub_organization")!.olderVersions.get("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4"));
    // The same from the type alone (how a vote finds what to run).
    expect(operationForActivityType("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4")).toEqual({ op: v4.op, entry: v4.entry });
    // The document has no V2 result member: V2 answers the nearest earlier one.
    expect(resolveActivity(subOrg, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2").op.resultKey).toBe("createSubOrganizationResult");
  });

  it("lets the auth proxy forward exactly its declared activities", () => {
    expect(proxyForwardedActivityTypes).toEqual(
      expect.arrayContaining(["ACTIVITY_TYPE_INIT_OTP_V3", "ACTIVITY_TYPE_VERIFY_OTP_V2", "ACTIVITY_TYPE_VERIFY_OTP", "ACTIVITY_TYPE_OTP_LOGIN_V2", "ACTIVITY_TYPE_OAUTH_LOGIN", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8"]),
    );
    expect(proxyForwardedActivityTypes).not.toContain("ACTIVITY_TYPE_CREATE_WALLET");
  });

  it("has no untyped parameters in handlers", () => {
    const untyped = [join(root, "emulator", "families"), join(root, "emulator", "core")]
      .flatMap(sources)
      .filter((f) => /(params|body|p|b): any\b/.test(readFileSync(f, "utf8")))
      .map((f) => relative(root, f));
    expect(untyped).toEqual([]);
  });
});
