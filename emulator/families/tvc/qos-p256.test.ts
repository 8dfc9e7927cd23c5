import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { quorumKeyEncrypt } from "@turnkey/crypto";
import { parseQosEnvelope, qosDecrypt, qosEncrypt, qosPairFromSeed } from "./qos-p256.js";

describe("QuorumOS P-256 pairs and envelopes", () => {
  it("a master seed gives QuorumOS's public key (its boot-e2e mock user1.secret / user1.pub)", () => {
    const pair = qosPairFromSeed(hexToBytes("be117d2f4b71edf57bc3401a4f39e401883d825b4f9e3e1354cb416f9c153136"));
    expect(bytesToHex(pair.publicKey)).toBe(
      "04ea875130f59fba7821392d8d67e079df467d045306ed8fb478c86a12d492d1151c133b70b38e6c3f50a4314b1095a8f5f9bbdedce8efc0b135b246d12095575304abcfd045d08bf438a1b41090ce5db1b6b8d8ad1e76437f4673ef211e3958a84da133b40894ca933f245d1136c2bf4fb89f126a7dc47db0bce9daddd55006dc13",
    );
  });

  it("opens what @turnkey/crypto's quorumKeyEncrypt seals, and round-trips its own", async () => {
    const secret = p256.utils.randomSecretKey();
    const message = utf8ToBytes("a quorum key share");
    const theirs = await quorumKeyEncrypt(p256.getPublicKey(secret, false), message);
    expect(qosDecrypt(secret, theirs)).toEqual(message);
    const ours = qosEncrypt(p256.getPublicKey(secret, true), message);
    expect(ours.length).toBe(12 + 65 + 4 + message.length + 16);
    expect(qosDecrypt(secret, ours)).toEqual(message);
  });

  it("refuses a wrong key, a tampered envelope and a malformed one", () => {
    const secret = p256.utils.randomSecretKey();
    const envelope = qosEncrypt(p256.getPublicKey(secret), utf8ToBytes("x"));
    expect(() => qosDecrypt(p256.utils.randomSecretKey(), envelope)).toThrow();
    const tampered = envelope.slice();
    tampered[tampered.length - 1]! ^= 1;
    expect(() => qosDecrypt(secret, tampered)).toThrow();
    expect(() => parseQosEnvelope(envelope.subarray(0, 50))).toThrow(/at least/);
    expect(() => parseQosEnvelope(Uint8Array.of(...envelope, 0))).toThrow(/does not match/);
    const badSender = envelope.slice();
    badSender[12] = 2;
    expect(() => parseQosEnvelope(badSender)).toThrow(/uncompressed P-256 point/);
  });
});
