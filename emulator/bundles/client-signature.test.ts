import { describe, it, expect } from "vitest";
import { webcrypto } from "node:crypto";
import { bytesToHex } from "@noble/hashes/utils.js";
import { p256 } from "@noble/curves/nist.js";
import { getClientSignatureMessageForLogin, getClientSignatureMessageForSignup } from "@turnkey/core";
import {
  CLIENT_SIGNATURE_SCHEME_API_P256,
  loginClientSignatureMessage,
  signupClientSignatureMessage,
  verifyClientSignature,
} from "./client-signature.js";
import { signVerificationToken } from "./jwt.js";
import { compressedP256Hex, generateP256KeyPair } from "./p256.js";

/** Signs like the browser SDK: WebCrypto ECDSA P-256/SHA-256, IEEE P1363 (raw r‖s) output. */
async function webCryptoSign(message: string) {
  const kp = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])) as webcrypto.CryptoKeyPair;
  const raw = new Uint8Array(await webcrypto.subtle.exportKey("raw", kp.publicKey));
  const sig = new Uint8Array(await webcrypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, kp.privateKey, new TextEncoder().encode(message)));
  return { publicKey: compressedP256Hex(raw), signature: sig };
}

describe("client signatures", () => {
  it("accepts a WebCrypto signature and rejects it over another message", async () => {
    const message = loginClientSignatureMessage({ sessionPublicKey: "02" + "ab".repeat(32), tokenId: "tok" });
    const { publicKey, signature } = await webCryptoSign(message);
    const sig = { publicKey, scheme: CLIENT_SIGNATURE_SCHEME_API_P256, message, signature: bytesToHex(signature) };
    expect(verifyClientSignature(sig)).toBe(true);
    expect(verifyClientSignature({ ...sig, message: message + " " })).toBe(false);
    expect(() => verifyClientSignature({ ...sig, scheme: "OTHER" })).toThrow(/scheme/);
    expect(() => verifyClientSignature({ ...sig, signature: "3044" })).toThrow(/64-byte/);
  });

  it("accepts the high-S twin of a valid signature (WebCrypto does not normalise S)", async () => {
    const { publicKey, signature } = await webCryptoSign("m");
    const s = BigInt("0x" + bytesToHex(signature.subarray(32)));
    const twinS = (p256.Point.CURVE().n - s).toString(16).padStart(64, "0");
    const twin = bytesToHex(signature.subarray(0, 32)) + twinS;
    expect(verifyClientSignature({ publicKey, scheme: CLIENT_SIGNATURE_SCHEME_API_P256, message: "m", signature: twin })).toBe(true);
  });

  it("builds the same login and signup messages as @turnkey/core", () => {
    const bound = compressedP256Hex(generateP256KeyPair().publicKey);
    const session = compressedP256Hex(generateP256KeyPair().publicKey);
    const verificationToken = signVerificationToken(
      { exp: "4102444800000", id: "token-id-1", organization_id: "o", verification_type: "OTP_TYPE_EMAIL", contact: "a@b.c", public_key: bound },
      generateP256KeyPair(),
    );
    const login = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: session });
    expect(login.publicKey).toBe(bound);
    expect(loginClientSignatureMessage({ sessionPublicKey: session, tokenId: "token-id-1" })).toBe(login.message);

    const usage = { email: "a@b.c", apiKeys: [{ apiKeyName: "k", publicKey: session, curveType: "API_KEY_CURVE_P256" }] };
    const signup = getClientSignatureMessageForSignup({ verificationToken, ...usage } as Parameters<typeof getClientSignatureMessageForSignup>[0]);
    expect(signupClientSignatureMessage({ usage, tokenId: "token-id-1" })).toBe(signup.message);
  });
});
