import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { generateP256KeyPair, makeOtpEncryptionTargetBundle, openEncryptedOtpBundle, signVerificationToken } from "../bundles/index.js";
import type { Exchange } from "./cassette.js";
import { keyPairLike } from "./keys.js";
import { boundKeyOf, clientSignatureFor, otpTargetsIn, sealOtpBundle } from "./secrets.js";

describe("what a replay makes anew", () => {
  it("seals an OTP code and a key to the replay's target bundle", () => {
    const made = makeOtpEncryptionTargetBundle({ tlsFetcherKey: generateP256KeyPair() });
    const key = keyPairLike("");
    expect(openEncryptedOtpBundle(sealOtpBundle("123456", made.bundle, key.publicKey), made.targetPrivateKey)).toEqual({ otp_code: "123456", public_key: key.publicKey });
  });

  it("signs a client signature over the replay's token id, verifiable with the key it names", () => {
    const key = keyPairLike("");
    const token = signVerificationToken({ exp: "0", id: "replay-token-id", organization_id: "o", contact: "a@example.com", verification_type: "OTP_TYPE_EMAIL", public_key: key.publicKey }, generateP256KeyPair());
    const recorded = { publicKey: key.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256", message: JSON.stringify({ login: { publicKey: key.publicKey }, tokenId: "recorded-token-id", type: "USAGE_TYPE_LOGIN" }), signature: "00" };
    const sig = clientSignatureFor(recorded, key, token) as { message: string; signature: string };
    expect(JSON.parse(sig.message)).toEqual({ login: { publicKey: key.publicKey }, tokenId: "replay-token-id", type: "USAGE_TYPE_LOGIN" });
    expect(p256.verify(hexToBytes(sig.signature), sha256(utf8ToBytes(sig.message)), hexToBytes(key.publicKey), { prehash: false })).toBe(true);
  });

  it("finds the OTP target bundles an answer gives, and the key a verification's token is later used with", () => {
    expect([...otpTargetsIn({ activity: { result: { initOtpResultV2: { otpId: "o1", otpEncryptionTargetBundle: "b1" } } } })]).toEqual([["o1", "b1"]]);
    const ex = (seq: number, body: unknown, response: unknown, stamp?: Exchange["request"]["stamp"]): Exchange => ({ seq, surface: "proxy", path: "/v1/x", operation: "proxy x", recordedAt: 0, durationMs: 0, request: { headers: {}, body, ...(stamp ? { stamp } : {}) }, response: { status: 200, headers: {}, body: response } });
    const token = "<redacted verificationToken len=300 #4>";
    const viaSignature = [ex(1, { otpId: "o" }, { verificationToken: token }), ex(2, { other: true }, {}), ex(3, { verificationToken: token, publicKey: "02aa", clientSignature: { publicKey: "02bb" } }, {})];
    expect(boundKeyOf(viaSignature, 0)).toBe("02bb");
    const viaStamp = [ex(1, {}, { verificationToken: token }), ex(2, { parameters: {} }, {}, { header: "X-Stamp-Attested", publicKey: "02cc", attestation: token })];
    expect(boundKeyOf(viaStamp, 0)).toBe("02cc");
    expect(boundKeyOf([ex(1, {}, {})], 0)).toBeUndefined();
  });
});
