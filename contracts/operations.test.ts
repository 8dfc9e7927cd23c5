/**
 * The operation registry against an independent oracle: the official @turnkey/sdk-server
 * client's generated code names, for every submit path it calls, the activity type it sends
 * and the result member it reads. Ours must agree on every path both know.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { coordinator } from "./index.js";
import { registry } from "../emulator/families.js";

const { activities, operationForActivityType } = registry;

const require = createRequire(import.meta.url);
const sdkSource = readFileSync(require.resolve("@turnkey/sdk-server").replace(/index\.(m?js)$/, "__generated__/sdk-client-base.$1"), "utf8");

/**
 * Where the SDK and the published document disagree. The document wins for the contract;
 * each entry is a known difference, listed so that a new one fails this test.
 */
const KNOWN_SDK_DIFFERENCES: Record<string, string> = {
  // The document's enum has an underscore before 7702; sdk-server 8.2.1 sends none.
  "/public/v1/submit/eth_undelegate_7702": "ACTIVITY_TYPE_ETH_UNDELEGATE7702",
};

describe("operation registry", () => {
  const calls = [...sdkSource.matchAll(/this\.command\("(\/public\/v1\/submit\/[a-z0-9_]+)",\s*\{[^}]*?type:\s*"([A-Z0-9_]+)",?\s*\},\s*"([A-Za-z0-9]+)"\)/g)].map((m) => ({ path: m[1]!, type: m[2]!, resultKey: m[3]! }));

  it("finds the SDK's submit calls", () => {
    expect(calls.length).toBeGreaterThan(80);
  });

  it("agrees with the SDK on activity type and result member for every submit path", () => {
    const mismatches = calls
      .filter((c) => coordinator[c.path] && KNOWN_SDK_DIFFERENCES[c.path] !== c.type)
      .filter((c) => coordinator[c.path]!.activityType !== c.type || coordinator[c.path]!.resultKey !== c.resultKey)
      .map((c) => ({ path: c.path, sdk: [c.type, c.resultKey], ours: [coordinator[c.path]!.activityType, coordinator[c.path]!.resultKey] }));
    expect(mismatches).toEqual([]);
  });

  it("routes every submit path with a type and an intent member", () => {
    const submits = Object.entries(coordinator).filter(([, op]) => op.kind === "submit");
    expect(submits.length).toBeGreaterThan(100);
    for (const [path, op] of submits) {
      expect(op.activityType, path).toMatch(/^ACTIVITY_TYPE_/);
      expect(op.intentKey, path).toMatch(/Intent(V\d+)?$/);
      // An emulated operation is found again from its activity type (how votes find what to run).
      if (activities.has(op.name)) expect(operationForActivityType(op.activityType!)?.op, path).toBe(op);
    }
  });
});
