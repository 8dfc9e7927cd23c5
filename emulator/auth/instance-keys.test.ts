import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { instanceKeysFor, instancePublicKeys } from "./instance-keys.js";
import { generateOtpCode, OTP_ALPHABET } from "../domain/otp.js";
import { createRandom } from "../random.js";

describe("instance keys", () => {
  it("are deterministic per seed, distinct per role and per seed, and each public key is its scalar's point (noble)", () => {
    const a = instanceKeysFor("org-a");
    expect(instancePublicKeys(instanceKeysFor("org-a"))).toEqual(instancePublicKeys(a));
    expect(instancePublicKeys(instanceKeysFor("org-b")).signerPublicKey).not.toBe(instancePublicKeys(a).signerPublicKey);
    const all = [a.enclave.signer, a.enclave.tlsFetcher, a.enclave.notarizer, a.oidcIssuer];
    expect(new Set(all.map((k) => bytesToHex(k.publicKey))).size).toBe(4);
    for (const k of all) expect(bytesToHex(p256.getPublicKey(k.privateKey, false))).toBe(bytesToHex(k.publicKey));
  });
});

describe("OTP codes", () => {
  it("use digits or Crockford base32 at the requested length", () => {
    for (let n = 0; n < 200; n++) {
      expect(generateOtpCode(6, false, createRandom())).toMatch(/^\d{6}$/);
      const code = generateOtpCode(9, true, createRandom());
      expect(code).toHaveLength(9);
      for (const ch of code) expect(OTP_ALPHABET).toContain(ch);
    }
    expect(OTP_ALPHABET).not.toMatch(/[ILOU]/);
  });
});
