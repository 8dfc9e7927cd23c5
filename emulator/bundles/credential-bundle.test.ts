import { describe, it, expect } from "vitest";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { decryptCredentialBundle, generateP256KeyPair as tkGenerate, getPublicKey } from "@turnkey/crypto";
import { encryptCredentialBundle, openCredentialBundle, base58check } from "./credential-bundle.js";
import { generateP256KeyPair } from "./p256.js";

// Published vector: @turnkey/crypto src/__tests__/crypto-test.ts
const VECTOR = {
  bundle: "w99a5xV6A75TfoAUkZn869fVyDYvgVsKrawMALZXmrauZd8hEv66EkPU1Z42CUaHESQjcA5bqd8dynTGBMLWB9ewtXWPEVbZvocB4Tw2K1vQVp7uwjf",
  receiverPrivateKey: "20fa65df11f24833790ae283fc9a0c215eecbbc589549767977994dc69d05a56",
  plaintext: "67ee05fc3bdf4161bc70701c221d8d77180294cefcfcea64ba83c4d4c732fcb9",
};

describe("credential bundles", () => {
  it("opens the published credential bundle vector", () => {
    const pt = openCredentialBundle(VECTOR.bundle, hexToBytes(VECTOR.receiverPrivateKey));
    expect(bytesToHex(pt)).toBe(VECTOR.plaintext);
  });

  it("@turnkey/crypto decryptCredentialBundle opens ours (compressed and uncompressed target keys)", () => {
    const target = tkGenerate();
    const apiKey = generateP256KeyPair();
    for (const targetHex of [target.publicKey, target.publicKeyUncompressed]) {
      const bundle = encryptCredentialBundle(apiKey.privateKey, targetHex);
      expect(decryptCredentialBundle(bundle, target.privateKey)).toBe(bytesToHex(apiKey.privateKey));
      // The client derives the API key's public half from it, as the RN/browser SDKs do.
      expect(bytesToHex(getPublicKey(hexToBytes(decryptCredentialBundle(bundle, target.privateKey)), false))).toBe(
        bytesToHex(apiKey.publicKey),
      );
    }
  });

  it("has the 33 + 32 + 16 byte layout under a bs58check checksum", () => {
    const bundle = encryptCredentialBundle(generateP256KeyPair().privateKey, tkGenerate().publicKey);
    expect(base58check.decode(bundle)).toHaveLength(81);
    const corrupted = (bundle[5] === "A" ? "B" : "A");
    expect(() => openCredentialBundle(bundle.slice(0, 5) + corrupted + bundle.slice(6), new Uint8Array(32).fill(1))).toThrow(
      /base58check/,
    );
  });

  it("rejects a non-32-byte private key", () => {
    expect(() => encryptCredentialBundle(new Uint8Array(31), tkGenerate().publicKey)).toThrow(/32 bytes/);
  });
});
