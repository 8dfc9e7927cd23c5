/**
 * The drift guard (issue 31): every path the installed @turnkey/http client can call is routed
 * (emulated, or 501 with its reason: never 404), and every activity type its enum lists is
 * accepted on some path, unless it is listed below as deliberately unrouted with a reason.
 * Bumping @turnkey/http shows the new surface here at once; `npm run gen:contracts -- <documents>`
 * then generates the new operations from its declarations.
 *
 * The oracle is the SDK's own files: its fetcher's `uri` literals and its `v1ActivityType` union.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./use-test-emulator.js";
import { coordinator } from "../contracts/index.js";

const emu = useTestEmulator();

const generated = join(dirname(createRequire(import.meta.url).resolve("@turnkey/http")), "__generated__/services/coordinator/public/v1");
const sdkPaths = [...new Set([...readFileSync(join(generated, "public_api.fetcher.js"), "utf8").matchAll(/uri: "([^"]+)"/g)].map((m) => m[1]!))].sort();
const sdkTypes = [...(/v1ActivityType: ([^;]+);/.exec(readFileSync(join(generated, "public_api.types.d.ts"), "utf8"))?.[1] ?? "").matchAll(/"([A-Z0-9_]+)"/g)].map((m) => m[1]!);

/** Paths the client knows that are not endpoints of the service. */
const UNROUTED_PATHS: Record<string, string> = {
  "/tkhq/api/v1/noop-codegen-anchor": "an anchor of the SDK's code generator, in no API document: not an endpoint",
};

const NO_PATH = "no API document routes it: a dashboard or billing action of the service (the emulator's control API does what applies: /emulator/v1/auth-proxy, /emulator/v1/gas-station/limits)";
const SWAPS = "another version of a swap activity: the document's execute_swap takes ACTIVITY_TYPE_EXECUTE_SWAP_V2 only (\"Requests must use ACTIVITY_TYPE_EXECUTE_SWAP_V2\"), and no document defines the newer versions, which add a destinationAddress the local swaps do not take (docs/swaps.md)";

/**
 * Activity types of the enum that no path accepts, and why: every other older version a
 * document defines is accepted at its family's path (docs/activity-versions.md).
 */
const UNROUTED_TYPES: Record<string, string> = {
  ...Object.fromEntries(
    [
      "ACCEPT_INVITATION", "ACCEPT_INVITATION_V2", "DISABLE_PRIVATE_KEY", "DELETE_ORGANIZATION", "CREATE_ORGANIZATION", "CREATE_ORGANIZATION_V2",
      "SET_PAYMENT_METHOD", "SET_PAYMENT_METHOD_V2", "UPDATE_PAYMENT_METHOD", "DELETE_PAYMENT_METHOD", "ACTIVATE_BILLING_TIER", "UPDATE_ALLOWED_ORIGINS",
      "ENABLE_AUTH_PROXY", "DISABLE_AUTH_PROXY", "UPDATE_AUTH_PROXY_CONFIG", "UPSERT_GAS_USAGE_CONFIG", "UPDATE_WALLET_ACCOUNT_NAME",
    ].map((t) => [`ACTIVITY_TYPE_${t}`, NO_PATH]),
  ),
  ...Object.fromEntries(["EXECUTE_SWAP", "EXECUTE_SWAP_V3", "CREATE_SWAP_QUOTE_V2"].map((t) => [`ACTIVITY_TYPE_${t}`, SWAPS])),
};

describe("drift guard: the installed @turnkey/http against the emulator", () => {
  it("reads the client's surface (a sanity floor, so that a changed file layout cannot pass empty)", () => {
    expect(sdkPaths.length).toBeGreaterThan(190);
    expect(sdkTypes.length).toBeGreaterThan(160);
  });

  it("routes every path the client can call: an unstamped call answers 401, or 501 with a recorded reason, never 404", async () => {
    const unknown: string[] = [];
    for (const path of sdkPaths) {
      if (path in UNROUTED_PATHS) continue;
      const res = await fetch(emu.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      if (![400, 401, 501].includes(res.status)) unknown.push(`${path} -> ${res.status}`);
      // Routed is not enough: the operation has a registry entry, or a reason it cannot be emulated.
      const op = coordinator[path];
      if (op && !emu.runtime.registry.entryFor(op.kind, op.name) && !emu.runtime.registry.notEmulated.has(op.name)) unknown.push(`${path}: no registry entry and no recorded reason`);
    }
    expect(unknown, "paths @turnkey/http calls that the emulator does not route: generate them (npm run gen:contracts) or list them in UNROUTED_PATHS with a reason").toEqual([]);
  });

  it("accepts every activity type the client's enum lists on some path, or lists why not", async () => {
    const current = new Set(Object.values(coordinator).map((op) => op.activityType));
    const refused = sdkTypes.filter((t) => !current.has(t) && !emu.runtime.registry.operationForActivityType(t) && !(t in UNROUTED_TYPES));
    expect(refused, "activity types @turnkey/http lists that no path accepts: add them to an entry's legacy list or to UNROUTED_TYPES with a reason").toEqual([]);
    // A listed type that some path now accepts is stale.
    const stale = Object.keys(UNROUTED_TYPES).filter((t) => current.has(t) || emu.runtime.registry.operationForActivityType(t));
    expect(stale).toEqual([]);
  });
});
