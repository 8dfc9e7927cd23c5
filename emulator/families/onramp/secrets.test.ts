import { describe, expect, it } from "vitest";
import { encryptOnRampSecret, PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY } from "@turnkey/crypto";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { generateP256KeyPair } from "../../bundles/p256.js";
import { instanceKeysFor } from "../../core/auth/instance-keys.js";
import { onRampEncryptionPublicKey, openOnRampSecret } from "./secrets.js";

describe("on-ramp secrets encrypted by @turnkey/crypto's encryptOnRampSecret", () => {
  const key = generateP256KeyPair();
  const publicHex = onRampEncryptionPublicKey(key);

  it("publishes the key compressed, the form encryptOnRampSecret takes, and it is the key pair's own point", () => {
    expect(publicHex).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(bytesToHex(p256.Point.fromHex(publicHex).toBytes(false))).toBe(bytesToHex(key.publicKey));
  });

  it("opens what the official encryptor sealed to the key (ASCII, UTF-8, long)", () => {
    for (const secret of ["sk_test_key", "clé secrète ✓", "x".repeat(2000), "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\n"]) {
      expect(openOnRampSecret(encryptOnRampSecret(secret, publicHex), key)).toBe(secret);
    }
  });

  it("refuses an envelope sealed to another key (the production key, another instance's), without echoing it", () => {
    const toProduction = encryptOnRampSecret("sk_live_secret", PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY);
    expect(() => openOnRampSecret(toProduction, key)).toThrow(/could not be decrypted with the on-ramp encryption key/);
    const other = onRampEncryptionPublicKey(generateP256KeyPair());
    try {
      openOnRampSecret(encryptOnRampSecret("sk_live_secret", other), key);
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain("sk_live_secret");
    }
  });

  it("refuses malformed envelopes and an empty one", () => {
    expect(() => openOnRampSecret("", key)).toThrow(/must be set/);
    expect(() => openOnRampSecret("not base58check!", key)).toThrow(/not valid base58check/);
    const good = encryptOnRampSecret("s", publicHex);
    expect(() => openOnRampSecret(good.slice(0, -2) + (good.endsWith("11") ? "22" : "11"), key)).toThrow(/could not be decrypted/);
  });

  it("derives one key per fixture, the same on every start", () => {
    const a = instanceKeysFor("org-a").onRamp;
    expect(onRampEncryptionPublicKey(instanceKeysFor("org-a").onRamp)).toBe(onRampEncryptionPublicKey(a));
    expect(onRampEncryptionPublicKey(instanceKeysFor("org-b").onRamp)).not.toBe(onRampEncryptionPublicKey(a));
    const k = instanceKeysFor("org-a");
    expect(new Set([k.onRamp, k.enclave.signer, k.enclave.tlsFetcher, k.enclave.notarizer, k.oidcIssuer].map((x) => bytesToHex(x.publicKey))).size).toBe(5);
  });
});
