import { describe, it, expect } from "vitest";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { CipherSuite, DhkemP256HkdfSha256, HkdfSha256, Aes256Gcm } from "@hpke/core";
import { hpkeDecrypt, hpkeEncrypt, formatHpkeBuf, generateP256KeyPair as tkGenerate } from "@turnkey/crypto";
import { HPKE_AEAD, hpkeOpen, hpkeSeal, keyScheduleBase } from "./hpke.js";
import { compressedP256, generateP256KeyPair } from "./p256.js";
import { InputError } from "../core/input-error.js";

// RFC 9180 Appendix A.3.1: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, mode_base.
const A3 = {
  info: "4f6465206f6e2061204772656369616e2055726e",
  skEm: "4995788ef4b9d6132b249ce59a77281493eb39af373d236a1fe415cb0c2d7beb",
  pkEm: "04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac98536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4",
  pkRm: "04fe8c19ce0905191ebc298a9245792531f26f0cece2460639e8bc39cb7f706a826a779b4cf969b8a0e539c7f62fb3d30ad6aa8f80e30f1d128aafd68a2ce72ea0",
  skRm: "f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2",
  sharedSecret: "c0d26aeab536609a572b07695d933b589dcf363ff9d93c93adea537aeabb8cb8",
  key: "868c066ef58aae6dc589b6cfdd18f97e",
  baseNonce: "4e0bc5018beba4bf004cca59",
  aad: "436f756e742d30",
  pt: "4265617574792069732074727574682c20747275746820626561757479",
  ct: "5ad590bb8baa577f8619db35a36311226a896e7342a6d836d8b7bcd2f20b6c7f9076ac232e3ab2523f39513434",
};

describe("HPKE key schedule and KEM (RFC 9180 A.3.1 vector)", () => {
  it("derives the published key and base nonce", () => {
    const { key, baseNonce } = keyScheduleBase(hexToBytes(A3.sharedSecret), hexToBytes(A3.info), HPKE_AEAD.AES_128_GCM);
    expect(bytesToHex(key)).toBe(A3.key);
    expect(bytesToHex(baseNonce)).toBe(A3.baseNonce);
  });

  it("seals to the published enc and ciphertext, and opens it", () => {
    const opts = { info: hexToBytes(A3.info), aead: HPKE_AEAD.AES_128_GCM, aad: hexToBytes(A3.aad) };
    const { enc, ciphertext } = hpkeSeal(hexToBytes(A3.pt), hexToBytes(A3.pkRm), { ...opts, ephemeralPrivateKey: hexToBytes(A3.skEm) });
    expect(bytesToHex(enc)).toBe(A3.pkEm);
    expect(bytesToHex(ciphertext)).toBe(A3.ct);
    expect(bytesToHex(hpkeOpen(hexToBytes(A3.pkEm), hexToBytes(A3.ct), hexToBytes(A3.skRm), opts))).toBe(A3.pt);
  });
});

describe("Turnkey HPKE profile against @turnkey/crypto", () => {
  it("@turnkey/crypto hpkeDecrypt opens our seal, even when the target key was given compressed", () => {
    const recipient = generateP256KeyPair();
    const pt = utf8ToBytes("emulator → SDK");
    for (const target of [recipient.publicKey, compressedP256(recipient.publicKey)]) {
      const { enc, ciphertext } = hpkeSeal(pt, target);
      const out = hpkeDecrypt({ ciphertextBuf: ciphertext, encappedKeyBuf: enc, receiverPriv: bytesToHex(recipient.privateKey) });
      expect(new TextDecoder().decode(out)).toBe("emulator → SDK");
    }
  });

  it("our hpkeOpen opens @turnkey/crypto hpkeEncrypt output", () => {
    const kp = tkGenerate();
    const sealed = JSON.parse(
      formatHpkeBuf(hpkeEncrypt({ plainTextBuf: utf8ToBytes("SDK → emulator"), targetKeyBuf: hexToBytes(kp.publicKeyUncompressed) })),
    );
    const out = hpkeOpen(hexToBytes(sealed.encappedPublic), hexToBytes(sealed.ciphertext), hexToBytes(kp.privateKey));
    expect(new TextDecoder().decode(out)).toBe("SDK → emulator");
  });

  it("import rule: AAD/kem_context use the target key exactly as the sender had it", () => {
    const kp = tkGenerate();
    const compressed = hexToBytes(kp.publicKey);
    const sealed = JSON.parse(formatHpkeBuf(hpkeEncrypt({ plainTextBuf: utf8ToBytes("x"), targetKeyBuf: compressed })));
    const enc = hexToBytes(sealed.encappedPublic);
    const ct = hexToBytes(sealed.ciphertext);
    expect(() => hpkeOpen(enc, ct, hexToBytes(kp.privateKey))).toThrow(InputError);
    expect(new TextDecoder().decode(hpkeOpen(enc, ct, hexToBytes(kp.privateKey), { recipientPublicKeyAsGiven: compressed }))).toBe("x");
  });

  it("rejects a tampered ciphertext with an InputError", () => {
    const recipient = generateP256KeyPair();
    const { enc, ciphertext } = hpkeSeal(utf8ToBytes("secret"), recipient.publicKey);
    ciphertext[0]! ^= 1;
    try {
      hpkeOpen(enc, ciphertext, recipient.privateKey);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).kind).toBe("invalid");
      expect((e as InputError).message).toBe("failed to decrypt bundle: HPKE authentication failed");
    }
  });
});

describe("Turnkey HPKE profile against hpke-js (@hpke/core)", () => {
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
  const info = utf8ToBytes("turnkey_hpke");

  it("hpke-js opens our seal with AAD = enc ‖ pkR", async () => {
    const recipient = generateP256KeyPair();
    const { enc, ciphertext } = hpkeSeal(utf8ToBytes("hello hpke-js"), recipient.publicKey);
    const recipientKey = await suite.kem.deserializePrivateKey(recipient.privateKey);
    const ctx = await suite.createRecipientContext({ recipientKey, enc, info });
    const pt = await ctx.open(ciphertext, concatBytes(enc, recipient.publicKey));
    expect(new TextDecoder().decode(pt)).toBe("hello hpke-js");
  });

  it("we open hpke-js's seal with AAD = enc ‖ pkR", async () => {
    const recipient = generateP256KeyPair();
    const recipientPublicKey = await suite.kem.deserializePublicKey(recipient.publicKey);
    const ctx = await suite.createSenderContext({ recipientPublicKey, info });
    const enc = new Uint8Array(ctx.enc);
    const ct = new Uint8Array(await ctx.seal(utf8ToBytes("from hpke-js"), concatBytes(enc, recipient.publicKey)));
    expect(new TextDecoder().decode(hpkeOpen(enc, ct, recipient.privateKey))).toBe("from hpke-js");
  });
});
