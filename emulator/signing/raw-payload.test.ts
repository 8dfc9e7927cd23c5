import { createECDH, createPrivateKey, createPublicKey, verify as nodeVerify } from "node:crypto";
import * as ecc from "@bitcoinerlab/secp256k1";
import { initEccLib, payments } from "bitcoinjs-lib";
import {
  hashMessage,
  keccak256,
  recoverAddress,
  recoverMessageAddress,
  recoverPublicKey,
  serializeTypedData,
  sha256,
  stringToBytes,
  toHex,
  verifyTypedData,
  type Hex,
} from "viem";
import { privateKeyToAccount, sign as viemSign } from "viem/accounts";
import { recoverAuthorizationAddress } from "viem/utils";
import { describe, expect, it } from "vitest";
import { InputError } from "../core/input-error.js";
import { signRawPayload, signRawPayloads, type RawSignature } from "./raw-payload.js";
import { ED_KEY, P256_KEY, SECP_KEY, SECP_KEY_HEX } from "./test-keys.fixture.js";

initEccLib(ecc);
const account = privateKeyToAccount(`0x${SECP_KEY_HEX}`);
const secp = { curve: "CURVE_SECP256K1" as const, privateKey: SECP_KEY };
const sigHex = (s: RawSignature): Hex => `0x${s.r}${s.s}${s.v === "00" ? "1b" : "1c"}`;
const b64u = (b: Uint8Array) => Buffer.from(b).toString("base64url");

function expectWireShape(sig: RawSignature) {
  expect(sig.r).toMatch(/^[0-9a-f]{64}$/);
  expect(sig.s).toMatch(/^[0-9a-f]{64}$/);
  expect(["00", "01"]).toContain(sig.v);
}

function expectInvalid(fn: () => unknown, field: string, text: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    const err = e as InputError;
    expect(err.kind).toBe("invalid");
    expect(err.message).toMatch(text);
    expect(err.path).toBe(field);
    return;
  }
  throw new Error("expected an InputError");
}

describe("signRawPayload secp256k1 ECDSA", () => {
  it("signs a viem hashMessage digest (HEX + NO_OP, with 0x) exactly as viem's own signer", async () => {
    const digest = hashMessage("hello turnkey");
    const sig = signRawPayload(secp, digest, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    expectWireShape(sig);
    const viemSig = await viemSign({ hash: digest, privateKey: `0x${SECP_KEY_HEX}` });
    expect(`0x${sig.r}`).toBe(viemSig.r);
    expect(`0x${sig.s}`).toBe(viemSig.s);
    expect(Number(sig.v)).toBe(viemSig.yParity);
    expect(await recoverMessageAddress({ message: "hello turnkey", signature: sigHex(sig) })).toBe(account.address);
  });

  it("accepts the hex digest without 0x (same signature)", () => {
    const digest = hashMessage("x");
    const a = signRawPayload(secp, digest, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    const b = signRawPayload(secp, digest.slice(2).toUpperCase(), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    expect(b).toEqual(a);
  });

  it("KECCAK256 hashes the decoded bytes", async () => {
    const payload = "0xdeadbeef00";
    const sig = signRawPayload(secp, payload, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_KECCAK256");
    expect(await recoverAddress({ hash: keccak256(payload), signature: sigHex(sig) })).toBe(account.address);
  });

  it("SHA256 over TEXT_UTF8 hashes the UTF-8 bytes", async () => {
    const text = "héllo ✓";
    const sig = signRawPayload(secp, text, "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_SHA256");
    const pub = await recoverPublicKey({ hash: sha256(stringToBytes(text)), signature: sigHex(sig) });
    expect(pub).toBe(account.publicKey);
  });

  it("EIP712: signs the typed-data digest of the JSON that @turnkey/viem sends", async () => {
    const typedData = {
      domain: { name: "Ether Mail", version: "1", chainId: 1, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
      types: {
        Person: [
          { name: "name", type: "string" },
          { name: "wallet", type: "address" },
        ],
        Mail: [
          { name: "from", type: "Person" },
          { name: "to", type: "Person" },
          { name: "contents", type: "string" },
          { name: "amount", type: "uint256" },
        ],
      },
      primaryType: "Mail",
      message: {
        from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
        to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
        contents: "Hello, Bob!",
        amount: 12345678901234567890n,
      },
    } as const;
    // viem's signTypedData action adds EIP712Domain before calling the account, so the JSON carries it.
    const withDomainType = {
      ...typedData,
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" },
          { name: "verifyingContract", type: "address" },
        ],
        ...typedData.types,
      },
    };
    const json = serializeTypedData(withDomainType as never);
    expect(JSON.parse(json).domain.name).toBe("Ether Mail");
    const sig = signRawPayload(secp, json, "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NO_OP");
    expectWireShape(sig);
    expect(await verifyTypedData({ address: account.address, ...typedData, signature: sigHex(sig) })).toBe(true);
    const other = { ...typedData, message: { ...typedData.message, contents: "Hello, Eve!" } };
    expect(await verifyTypedData({ address: account.address, ...other, signature: sigHex(sig) })).toBe(false);
  });

  it("EIP7702_AUTHORIZATION: signs the authorization hash of {address, chainId, nonce}", async () => {
    const address = "0x1234567890123456789012345678901234567890";
    for (const [chainId, nonce] of [[1, 7], [0, 0]] as const) {
      const payload = JSON.stringify({ address, chainId, nonce });
      const sig = signRawPayload(secp, payload, "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION", "HASH_FUNCTION_NO_OP");
      const signer = await recoverAuthorizationAddress({
        authorization: { address, chainId, nonce, r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: Number(sig.v) },
      });
      expect(signer).toBe(account.address);
    }
  });
});

describe("signRawPayload other curves and schemes", () => {
  it("ed25519 signs the raw message bytes (r = first 32 bytes, s = last 32, v = 00)", () => {
    const msg = Buffer.from("solana message bytes");
    const sig = signRawPayload(
      { curve: "CURVE_ED25519", privateKey: ED_KEY },
      msg.toString("hex"),
      "PAYLOAD_ENCODING_HEXADECIMAL",
      "HASH_FUNCTION_NOT_APPLICABLE",
    );
    expect(sig.v).toBe("00");
    // RFC 8032 test 1 public key.
    const pub = Buffer.from("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "hex");
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: b64u(pub) }, format: "jwk" });
    const full = Buffer.from(sig.r + sig.s, "hex");
    expect(nodeVerify(null, msg, key, full)).toBe(true);
    expect(nodeVerify(null, Buffer.from("other"), key, full)).toBe(false);
  });

  it("ed25519 matches the RFC 8032 section 7.1 TEST 2 vector", () => {
    // RFC 8032 section 7.1, TEST 2.
    const priv = Buffer.from("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "hex");
    const sig = signRawPayload(
      { curve: "CURVE_ED25519", privateKey: priv },
      "72",
      "PAYLOAD_ENCODING_HEXADECIMAL",
      "HASH_FUNCTION_NOT_APPLICABLE",
    );
    expect(sig.r + sig.s).toBe(
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da" +
        "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    );
  });

  it("P-256 ECDSA verifies with Node's crypto (OpenSSL) and is low-S", () => {
    const text = "p256 payload";
    const sig = signRawPayload({ curve: "CURVE_P256", privateKey: P256_KEY }, text, "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_SHA256");
    expectWireShape(sig);
    const priv = createPrivateKey({
      key: { kty: "EC", crv: "P-256", d: b64u(P256_KEY), ...xyFromNode(P256_KEY) },
      format: "jwk",
    });
    const pub = createPublicKey(priv);
    const ok = nodeVerify("sha256", Buffer.from(text), { key: pub, dsaEncoding: "ieee-p1363" }, Buffer.from(sig.r + sig.s, "hex"));
    expect(ok).toBe(true);
    const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
    expect(BigInt(`0x${sig.s}`) <= n / 2n).toBe(true);
  });

  it("BIP340 Schnorr verifies against the x-only public key", () => {
    const digest = sha256("0x01", "bytes");
    const sig = signRawPayload({ ...secp, scheme: "BIP340" }, toHex(digest), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    expect(sig.v).toBe("00");
    const xonly = ecc.xOnlyPointFromScalar(SECP_KEY);
    expect(ecc.verifySchnorr(digest, xonly, Buffer.from(sig.r + sig.s, "hex"))).toBe(true);
  });

  it("BIP341 taproot signs with the key tweaked as bitcoinjs computes a BIP-86 P2TR output key (odd and even y)", () => {
    const payload = "some taproot message";
    const digest = sha256(stringToBytes(payload), "bytes");
    // SECP_KEY's public key has odd y (03…), the second key's has even y (02…).
    for (const privateKey of [SECP_KEY, new Uint8Array(32).fill(2)]) {
      const sig = signRawPayload({ curve: "CURVE_SECP256K1", privateKey, scheme: "BIP341_TAPROOT" }, payload, "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_SHA256");
      const internal = ecc.xOnlyPointFromScalar(privateKey);
      const outputKey = payments.p2tr({ internalPubkey: internal }).pubkey!;
      const full = Buffer.from(sig.r + sig.s, "hex");
      expect(ecc.verifySchnorr(digest, outputKey, full)).toBe(true);
      expect(ecc.verifySchnorr(digest, internal, full)).toBe(false);
    }
  });
});

describe("signRawPayloads", () => {
  it("signs each payload in order", async () => {
    const msgs = ["a", "b", "c"];
    const sigs = signRawPayloads(secp, msgs.map((m) => hashMessage(m)), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    expect(sigs).toHaveLength(3);
    for (const [i, m] of msgs.entries()) {
      expect(await recoverMessageAddress({ message: m, signature: sigHex(sigs[i]!) })).toBe(account.address);
    }
  });

  it("rejects an empty list and names the failing element", () => {
    expectInvalid(() => signRawPayloads(secp, [], "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"), "payloads", /empty/);
    expectInvalid(
      () => signRawPayloads(secp, [hashMessage("a"), "zz"], "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"),
      "payloads[1]",
      /not valid hex/,
    );
  });
});

describe("signRawPayload validation", () => {
  const ed = { curve: "CURVE_ED25519" as const, privateKey: ED_KEY };
  it("rejects bad hex, odd length and empty payloads", () => {
    expectInvalid(() => signRawPayload(secp, "0xzz", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_SHA256"), "payload", /not valid hex/);
    expectInvalid(() => signRawPayload(secp, "abc", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_SHA256"), "payload", /odd/);
    expectInvalid(() => signRawPayload(secp, "0x", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_SHA256"), "payload", /empty/);
  });
  it("NO_OP needs a 32-byte digest for ECDSA", () => {
    expectInvalid(() => signRawPayload(secp, "00".repeat(31), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"), "payload", /32-byte/);
    expectInvalid(() => signRawPayload(secp, "hello", "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_NO_OP"), "payload", /32-byte/);
  });
  it("rejects unknown enums", () => {
    expectInvalid(() => signRawPayload(secp, "00", "PAYLOAD_ENCODING_BASE64", "HASH_FUNCTION_SHA256"), "encoding", /invalid payload encoding/);
    expectInvalid(() => signRawPayload(secp, "00", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_MD5"), "hashFunction", /invalid hash function/);
  });
  it("ed25519 needs NOT_APPLICABLE and non-Ethereum encodings; ECDSA refuses NOT_APPLICABLE", () => {
    expectInvalid(() => signRawPayload(ed, "00", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_SHA256"), "hashFunction", /invalid hash function/);
    expectInvalid(() => signRawPayload(ed, "{}", "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NOT_APPLICABLE"), "encoding", /invalid payload encoding/);
    expectInvalid(() => signRawPayload(secp, "00", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NOT_APPLICABLE"), "hashFunction", /only valid for ed25519/);
  });
  it("EIP-712 / EIP-7702 require NO_OP and well-formed JSON", () => {
    expectInvalid(() => signRawPayload(secp, "{}", "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_KECCAK256"), "hashFunction", /NO_OP/);
    expectInvalid(() => signRawPayload(secp, "{not json", "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NO_OP"), "payload", /JSON/);
    expectInvalid(
      () => signRawPayload(secp, JSON.stringify({ types: { A: [{ name: "x", type: "uint256" }] }, primaryType: "B", message: {} }), "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NO_OP"),
      "payload",
      /EIP-712/,
    );
    expectInvalid(
      () => signRawPayload(secp, JSON.stringify({ address: "0x12", chainId: 1, nonce: 0 }), "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION", "HASH_FUNCTION_NO_OP"),
      "payload",
      /address/,
    );
    expectInvalid(
      () => signRawPayload(secp, JSON.stringify({ address: "0x1234567890123456789012345678901234567890", chainId: -1, nonce: 0 }), "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION", "HASH_FUNCTION_NO_OP"),
      "payload",
      /chainId/,
    );
  });
});

/** P-256 public coordinates from Node (so the verifier does not use our curve code). */
function xyFromNode(d: Uint8Array): { x: string; y: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(d));
  const pub = ecdh.getPublicKey(); // 04 ‖ x ‖ y
  return { x: b64u(pub.subarray(1, 33)), y: b64u(pub.subarray(33, 65)) };
}
