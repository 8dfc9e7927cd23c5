import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { instanceKeysFor, instancePublicKeys } from "./instance-keys.js";

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
