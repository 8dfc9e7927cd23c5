import { createECDH, createPrivateKey, createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

// Oracle: OpenSSL through node:crypto.
const ecdhPublic = (curve: string, priv: Uint8Array, form: "compressed" | "uncompressed") => {
  const ecdh = createECDH(curve);
  ecdh.setPrivateKey(Buffer.from(priv));
  return ecdh.getPublicKey("hex", form);
};
const ed25519Public = (seed: Uint8Array) => {
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.from(seed)]);
  const spki = createPublicKey(createPrivateKey({ key: der, format: "der", type: "pkcs8" })).export({ format: "der", type: "spki" });
  return spki.subarray(-32).toString("hex");
};

describe("ADDRESS_FORMAT_UNCOMPRESSED / COMPRESSED (oracle: node:crypto / OpenSSL)", () => {
  it("secp256k1", () => {
    for (const k of testKeys("ADDRESS_FORMAT_COMPRESSED", "CURVE_SECP256K1")) {
      expect(addressFor("ADDRESS_FORMAT_COMPRESSED", k.curve, k.publicKey)).toBe(ecdhPublic("secp256k1", k.privateKey, "compressed"));
      const u = addressFor("ADDRESS_FORMAT_UNCOMPRESSED", k.curve, k.publicKey);
      expect(u).toBe(ecdhPublic("secp256k1", k.privateKey, "uncompressed"));
      expect(u).toMatch(/^04[0-9a-f]{128}$/);
    }
  });
  it("P-256", () => {
    for (const k of testKeys("ADDRESS_FORMAT_COMPRESSED", "CURVE_P256")) {
      expect(addressFor("ADDRESS_FORMAT_COMPRESSED", k.curve, k.publicKey)).toBe(ecdhPublic("prime256v1", k.privateKey, "compressed"));
      expect(addressFor("ADDRESS_FORMAT_UNCOMPRESSED", k.curve, k.publicKey)).toBe(
        ecdhPublic("prime256v1", k.privateKey, "uncompressed"),
      );
    }
  });
  it("ed25519 (COMPRESSED only: the 32-byte key)", () => {
    for (const k of testKeys("ADDRESS_FORMAT_COMPRESSED", "CURVE_ED25519")) {
      const a = addressFor("ADDRESS_FORMAT_COMPRESSED", k.curve, k.publicKey);
      expect(a).toBe(ed25519Public(k.privateKey));
      expect(a).toMatch(/^[0-9a-f]{64}$/);
      expect(() => addressFor("ADDRESS_FORMAT_UNCOMPRESSED", k.curve, k.publicKey)).toThrow(/does not support CURVE_ED25519/);
    }
  });
});
