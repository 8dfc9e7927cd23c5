import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSealer } from "../../core/store/seal.js";
import { openSecretValue, sealSecretValue } from "./activities.js";

describe("a secret's sealed value", () => {
  const sealer = createSealer(randomBytes(32));
  const value = new TextEncoder().encode("api-key: sk_live_123");

  it("opens for the secret it was sealed for", () => {
    const valueSealed = sealSecretValue(sealer, "org-a", "secret-1", value);
    expect(new TextDecoder().decode(openSecretValue(sealer, { orgId: "org-a", id: "secret-1", valueSealed }))).toBe("api-key: sk_live_123");
    expect(valueSealed).not.toContain("sk_live_123");
  });

  it("refuses to stand in for another secret or organization (ciphertext moved between rows)", () => {
    const valueSealed = sealSecretValue(sealer, "org-a", "secret-1", value);
    expect(() => openSecretValue(sealer, { orgId: "org-a", id: "secret-2", valueSealed })).toThrow(/bound to another secret/);
    expect(() => openSecretValue(sealer, { orgId: "org-b", id: "secret-1", valueSealed })).toThrow(/bound to another secret/);
  });

  it("does not open under another sealing key", () => {
    const valueSealed = sealSecretValue(sealer, "org-a", "secret-1", value);
    expect(() => openSecretValue(createSealer(randomBytes(32)), { orgId: "org-a", id: "secret-1", valueSealed })).toThrow();
  });
});
