import { describe, expect, it } from "vitest";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { privateKeyToAccount } from "viem/accounts";
import { devKey, newP256KeyPair, rawPost, sdkClient, stampBody, storeCounts, submitBody } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();

const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url");
const stampHeader = (publicKey: string, scheme: string, signature: string) => ({ "X-Stamp": b64url(JSON.stringify({ publicKey, scheme, signature })) });

async function addKey(curveType: string, publicKey: string, expirationSeconds?: string) {
  const r = await sdkClient(emu).createApiKeys({
    userId: emu.info.rootUserId,
    apiKeys: [{ apiKeyName: `${curveType}-${publicKey.slice(0, 8)}`, publicKey, curveType: curveType as "API_KEY_CURVE_P256", ...(expirationSeconds ? { expirationSeconds } : {}) }],
  });
  expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return r.apiKeyIds[0]!;
}

const whoamiBody = () => JSON.stringify({ organizationId: emu.info.organizationId });

describe("X-Stamp schemes", () => {
  it("accepts SIGNATURE_SCHEME_TK_API_SECP256K1 (ECDSA over sha256(body), DER)", async () => {
    const priv = secp256k1.utils.randomSecretKey();
    const pub = bytesToHex(secp256k1.getPublicKey(priv, true));
    await addKey("API_KEY_CURVE_SECP256K1", pub);
    const body = whoamiBody();
    const sig = secp256k1.sign(sha256(new TextEncoder().encode(body)), priv, { prehash: false, format: "der" });
    const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: stampHeader(pub, "SIGNATURE_SCHEME_TK_API_SECP256K1", bytesToHex(sig)) });
    expect(r.status).toBe(200);
    expect(r.json.userId).toBe(emu.info.rootUserId);
  });

  it("accepts SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191 signed by viem's personal_sign", async () => {
    const privHex = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    const pub = bytesToHex(secp256k1.getPublicKey(hexToBytes(privHex), true));
    await addKey("API_KEY_CURVE_SECP256K1", pub);
    const body = whoamiBody();
    const sig65 = hexToBytes((await privateKeyToAccount(`0x${privHex}`).signMessage({ message: body })).slice(2));
    const der = secp256k1.Signature.fromBytes(sig65.slice(0, 64), "compact").toBytes("der");
    const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: stampHeader(pub, "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191", bytesToHex(der)) });
    expect(r.status).toBe(200);
    // The same key cannot pass itself off under the P-256 scheme.
    const bad = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: stampHeader(pub, "SIGNATURE_SCHEME_TK_API_P256", bytesToHex(der)) });
    expect(bad.status).toBe(401);
  });

  it("accepts SIGNATURE_SCHEME_TK_API_ED25519 over the raw body and over sha256(body)", async () => {
    const priv = ed25519.utils.randomSecretKey();
    const pub = bytesToHex(ed25519.getPublicKey(priv));
    await addKey("API_KEY_CURVE_ED25519", pub);
    const body = whoamiBody();
    const bytes = new TextEncoder().encode(body);
    for (const signed of [bytes, sha256(bytes)]) {
      const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: stampHeader(pub, "SIGNATURE_SCHEME_TK_API_ED25519", bytesToHex(ed25519.sign(signed, priv))) });
      expect(r.status).toBe(200);
    }
  });

  it("accepts high-S P-256 signatures", async () => {
    const key = devKey(emu);
    const body = whoamiBody();
    const { p256 } = await import("@noble/curves/nist.js");
    const low = p256.Signature.fromBytes(p256.sign(sha256(new TextEncoder().encode(body)), hexToBytes(key.privateKey), { prehash: false, lowS: true }));
    const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n; // P-256 group order
    const high = new p256.Signature(low.r, N - low.s);
    expect(high.s > N / 2n).toBe(true);
    const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: stampHeader(key.publicKey, "SIGNATURE_SCHEME_TK_API_P256", bytesToHex(high.toBytes("der"))) });
    expect(r.status).toBe(200);
  });
});

describe("authentication failures (nothing is written)", () => {
  it("with many requests in flight (signatures checked on the thread pool), each good stamp passes and each bad one is refused", async () => {
    const body = whoamiBody();
    // A stamp over another body: well-formed, from a known key, wrong signature for this body.
    const { stampHeaderValue: wrong } = await stampBody(JSON.stringify({ organizationId: emu.info.organizationId, other: 1 }), devKey(emu));
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: { "X-Stamp": wrong } }) : rawPost(emu, "/public/v1/query/whoami", body))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? 401 : 200)));
    for (const [i, a] of answers.entries()) {
      if (i % 3 === 0) expect(a.json.message).toBe("could not verify api key signature");
      else expect(a.json.userId).toBe(emu.info.rootUserId);
    }
  });

  const createTag = () => submitBody(emu, "ACTIVITY_TYPE_CREATE_USER_TAG", { userTagName: `t-${Math.random()}`, userIds: [] });

  it("rejects a request without a stamp", async () => {
    const before = storeCounts(emu);
    const r = await rawPost(emu, "/public/v1/submit/create_user_tag", createTag(), { key: null });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ code: 16, message: expect.stringContaining("without a stamp") });
    expect(storeCounts(emu)).toEqual(before);
  });

  it("rejects a tampered body", async () => {
    const before = storeCounts(emu);
    const body = createTag();
    const { stampHeaderValue } = await stampBody(body, devKey(emu));
    const tampered = body.replace("t-", "x-");
    const r = await rawPost(emu, "/public/v1/submit/create_user_tag", tampered, { key: null, headers: { "X-Stamp": stampHeaderValue } });
    expect(r.status).toBe(401);
    expect(r.json.message).toBe("could not verify api key signature");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("rejects a key the organization does not know", async () => {
    const before = storeCounts(emu);
    const r = await rawPost(emu, "/public/v1/submit/create_user_tag", createTag(), { key: newP256KeyPair() });
    expect(r.status).toBe(401);
    expect(r.json.message).toBe("could not find public key in organization or its parent organization");
    await expect(sdkClient(emu, newP256KeyPair()).getWhoami({})).rejects.toThrow(/could not find public key in organization or its parent organization/);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("rejects an unknown or malformed organization", async () => {
    const body = JSON.stringify({ organizationId: "11111111-2222-4333-8444-555555555555" });
    const r = await rawPost(emu, "/public/v1/query/whoami", body);
    expect(r.status).toBe(404);
    // The documented message, then the id (Turnkey's Python SDK's test asserts both).
    expect(r.json.message).toBe("no organization found with the given ID: 11111111-2222-4333-8444-555555555555");
    const bad = await rawPost(emu, "/public/v1/query/whoami", JSON.stringify({ organizationId: "not-a-uuid" }));
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("malformed organization ID provided");
  });

  it("rejects an expired key with the message the SDKs map to SESSION_EXPIRED", async () => {
    const key = newP256KeyPair();
    await addKey("API_KEY_CURVE_P256", key.publicKey, "60");
    expect((await sdkClient(emu, key).getWhoami({})).userId).toBe(emu.info.rootUserId);
    emu.runtime.clock.offsetMs = 61_000;
    try {
      const r = await rawPost(emu, "/public/v1/query/whoami", whoamiBody().replace("}", ` }`), { key });
      expect(r.status).toBe(401);
      expect(r.json.message).toContain("Unauthenticated desc = expired api key publicKey");
    } finally {
      emu.runtime.clock.offsetMs = 0;
    }
  });

  it("rejects stale and future timestamps", async () => {
    for (const [offset, text] of [
      [-61 * 60_000, "more than 1 hour old"],
      [6 * 60_000, "in the future"],
    ] as const) {
      const before = storeCounts(emu);
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_USER_TAG", timestampMs: String(Date.now() + offset), organizationId: emu.info.organizationId, parameters: { userTagName: "late", userIds: [] } });
      const r = await rawPost(emu, "/public/v1/submit/create_user_tag", body);
      expect(r.status).toBe(400);
      expect(r.json.message).toContain(text);
      expect(storeCounts(emu)).toEqual(before);
    }
  });

  it("rejects a malformed stamp header", async () => {
    const r = await rawPost(emu, "/public/v1/query/whoami", whoamiBody(), { key: null, headers: { "X-Stamp": "!!!not-base64-json" } });
    expect(r.status).toBe(401);
    expect(r.json.message).toBe("malformed activity stamp");
  });
});
