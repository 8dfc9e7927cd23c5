/**
 * The registry against the published contract and the code layout: every entry is routed,
 * every route is either emulated or answers 501 with a reason, and nothing outside the
 * handlers reaches into handler modules.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { coordinator, proxy } from "../../contracts/index.js";
import { activities, endpoints, entryFor, notEmulated, notEmulatedReason, policyOf, proxyForwardedActivityTypes, queries, unroutedEntries } from "./registry.js";
import { notEmulatedError } from "./not-emulated.js";
import { registryIndexPath, registryIndexSource } from "../../scripts/gen-registry.js";

const root = join(import.meta.dirname, "..", "..");
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

describe("operation registry", () => {
  it("gathers every module of entries: operations/index.generated.ts is what `npm run gen:registry` writes", () => {
    expect(readFileSync(registryIndexPath, "utf8"), "emulator/operations/index.generated.ts is stale: run npm run gen:registry").toBe(registryIndexSource());
  });

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
    expect(policyOf("ACTIVITY_TYPE_SPARK_SIGN_FROST")).toEqual({ resource: "PRIVATE_KEY", action: "SIGN", source: "inferred", params: [["sign_with", "signWith"]] });
    expect(policyOf("ACTIVITY_TYPE_CREATE_ORGANIZATION")).toEqual({ resource: "ORGANIZATION", action: "CREATE", source: "inferred" }); // no operation routes it
    expect(policyOf("ACTIVITY_TYPE_ETH_UNDELEGATE7702")).toBeUndefined(); // an SDK spelling, recorded as ETH_UNDELEGATE_7702
    expect(policyOf("ACTIVITY_TYPE_APPROVE_ACTIVITY")).toBeUndefined();
  });

  it("lets the auth proxy forward exactly its declared activities", () => {
    expect(proxyForwardedActivityTypes).toEqual(
      expect.arrayContaining(["ACTIVITY_TYPE_INIT_OTP_V3", "ACTIVITY_TYPE_VERIFY_OTP_V2", "ACTIVITY_TYPE_VERIFY_OTP", "ACTIVITY_TYPE_OTP_LOGIN_V2", "ACTIVITY_TYPE_OAUTH_LOGIN", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8"]),
    );
    expect(proxyForwardedActivityTypes).not.toContain("ACTIVITY_TYPE_CREATE_WALLET");
  });

  it("keeps handler modules private to the registry's generated index: no other module imports them", () => {
    const offenders = sources(join(root, "emulator"))
      .filter((f) => !f.includes(join("activities", "handlers")) && !f.endsWith(join("operations", "index.generated.ts")))
      .filter((f) => /from "[^"]*activities\/handlers\//.test(readFileSync(f, "utf8")))
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it("has no untyped parameters in handlers", () => {
    const untyped = [join(root, "emulator", "activities"), join(root, "emulator", "queries"), join(root, "emulator", "proxy"), join(root, "emulator", "operations")]
      .flatMap(sources)
      .filter((f) => /(params|body|p|b): any\b/.test(readFileSync(f, "utf8")))
      .map((f) => relative(root, f));
    expect(untyped).toEqual([]);
  });
});
