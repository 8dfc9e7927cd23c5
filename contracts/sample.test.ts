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
});
