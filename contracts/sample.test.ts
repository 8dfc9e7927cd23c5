import { describe, expect, it } from "vitest";
import { coordinator, proxy } from "./index.js";
import { sampleValue } from "./sample.js";

describe("sampleValue", () => {
  it("makes a body every routed request schema accepts", () => {
    const rejected = [...Object.entries(coordinator), ...Object.entries(proxy)]
      .map(([path, op]) => ({ path, r: op.request.safeParse(sampleValue(op.request, { organizationId: "00000000-0000-4000-8000-000000000000" })) }))
      .filter(({ r }) => !r.success)
      .map(({ path, r }) => `${path}: ${r.error?.issues[0]?.message}`);
    expect(rejected).toEqual([]);
  });

  it("fills chosen fields by name at any depth", () => {
    const op = coordinator["/public/v1/submit/create_wallet"]!;
    const body = sampleValue(op.request, { walletName: "w", organizationId: "o" }) as { organizationId: string; parameters: { walletName: string } };
    expect([body.organizationId, body.parameters.walletName]).toEqual(["o", "w"]);
  });

  it("includes every optional field (arrays with one item) or sends each as null, under the names asked for", () => {
    const op = coordinator["/public/v1/submit/create_wallet"]!;
    const full = sampleValue(op.request, { organizationId: "o" }, { optional: "include", name: (k) => k.toUpperCase() }) as Record<string, any>;
    expect(Object.keys(full)).toEqual(["TYPE", "TIMESTAMPMS", "ORGANIZATIONID", "PARAMETERS", "GENERATEAPPPROOFS"]);
    expect(Object.keys(full.PARAMETERS.ACCOUNTS[0])).toEqual(["CURVE", "PATHFORMAT", "PATH", "ADDRESSFORMAT", "NAME"]);
    expect(op.request.safeParse(sampleValue(op.request, {}, { optional: "include" })).success).toBe(true);
    const nulls = sampleValue(op.request, {}, { optional: "null" }) as Record<string, any>;
    expect([nulls.generateAppProofs, nulls.parameters.mnemonicLength, nulls.parameters.accounts]).toEqual([null, null, []]);
  });
});
