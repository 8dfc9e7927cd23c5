import { describe, it, expect } from "vitest";
import { encryptOtpCodeToBundle, generateP256KeyPair as tkGenerate } from "@turnkey/crypto";
import { makeOtpEncryptionTargetBundle, openEncryptedOtpBundle } from "./otp-bundles.js";
import { enclaveKeysFromSeed, enclavePublicKeysHex } from "./enclave-keys.js";

const keys = enclaveKeysFromSeed(new Uint8Array(32).fill(11));
const tlsHex = enclavePublicKeysHex(keys).tlsFetcher;

describe("OTP v2 bundles", () => {
  it("encryptOtpCodeToBundle accepts our target bundle and we open the result", async () => {
    const made = makeOtpEncryptionTargetBundle({ tlsFetcherKey: keys.tlsFetcher });
    expect(Object.keys(JSON.parse(made.bundle))).toEqual(["enclaveQuorumPublic", "dataSignature", "data"]);
    const client = tkGenerate();
    const encrypted = await encryptOtpCodeToBundle("123456", made.bundle, client.publicKey, tlsHex);
    expect(openEncryptedOtpBundle(encrypted, made.targetPrivateKey)).toEqual({ otp_code: "123456", public_key: client.publicKey });
  });

  it("the SDK refuses our bundle against any other TLS-fetcher key", async () => {
    const made = makeOtpEncryptionTargetBundle({ tlsFetcherKey: keys.tlsFetcher });
    await expect(encryptOtpCodeToBundle("1", made.bundle, tkGenerate().publicKey)).rejects.toThrow(/signer key/);
    await expect(encryptOtpCodeToBundle("1", made.bundle, tkGenerate().publicKey, enclavePublicKeysHex(keys).signer)).rejects.toThrow();
  });

  it("a bundle for another target does not open", async () => {
    const a = makeOtpEncryptionTargetBundle({ tlsFetcherKey: keys.tlsFetcher });
    const b = makeOtpEncryptionTargetBundle({ tlsFetcherKey: keys.tlsFetcher });
    const encrypted = await encryptOtpCodeToBundle("654321", a.bundle, tkGenerate().publicKey, tlsHex);
    expect(() => openEncryptedOtpBundle(encrypted, b.targetPrivateKey)).toThrow(/decrypt/);
  });
});
