import { describe, expect, it } from "vitest";
import { organizationOf } from "./request-log-routes.js";

describe("organizationOf", () => {
  it("reads the top-level organization under its JSON or proto name; null is not set", () => {
    expect(organizationOf(Buffer.from('{"organizationId":"org-1"}'))).toBe("org-1");
    expect(organizationOf(Buffer.from('{"organization_id":"org-2"}'))).toBe("org-2");
    expect(organizationOf(Buffer.from('{"organizationId":null}'))).toBeNull();
    expect(organizationOf(Buffer.from("not json"))).toBeNull();
  });

  it("finds it at the start of a body too large to parse", () => {
    const big = (key: string) => Buffer.from(`{"${key}":"org-3","parameters":{"payload":"${"a".repeat(70 * 1024)}"}}`);
    expect(organizationOf(big("organizationId"))).toBe("org-3");
    expect(organizationOf(big("organization_id"))).toBe("org-3");
  });
});
