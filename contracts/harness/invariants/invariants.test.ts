/**
 * Oracles: the Hardhat/Anvil well-known key and mnemonic (published addresses), RFC 8032
 * test vector 1 for ed25519, and signatures made with viem's signer.
 */
import { describe, expect, it } from "vitest";
import { keccak256, parseEther, serializeTransaction, toHex } from "viem";
import { privateKeyToAccount, sign } from "viem/accounts";
import { base58 } from "@scure/base";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { formatHpkeBuf, hpkeEncrypt, PRODUCTION_SIGNER_SIGN_PUBLIC_KEY } from "@turnkey/crypto";

import { invariantNames, runInvariant } from "./index.js";

const HARDHAT_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const HARDHAT_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const HARDHAT_1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MNEMONIC = "test test test test test test test test test test test junk";

async function turnkeyStyleSignature(hash: `0x${string}`) {
  const sig = await sign({ hash, privateKey: HARDHAT_KEY, to: "object" });
  return { r: sig.r.slice(2), s: sig.s.slice(2), v: sig.yParity === 0 ? "00" : "01" };
}

describe("signatureVerifies", () => {
  it("is registered with mnemonicDerives", () => {
    expect(invariantNames()).toEqual(["mnemonicDerives", "signatureVerifies", "transactionSignedBy"]);
  });

  it("accepts a keccak256 text signature by the signer and rejects tampering", async () => {
    const payload = "hello conformance";
    const signature = await turnkeyStyleSignature(keccak256(toHex(payload)));
    const args = { signature, address: HARDHAT_0, payload, encoding: "PAYLOAD_ENCODING_TEXT_UTF8", hashFunction: "HASH_FUNCTION_KECCAK256" };
    expect(await runInvariant("signatureVerifies", args)).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("signatureVerifies", { ...args, address: HARDHAT_1 })).toMatchObject({ outcome: "fail" });
    expect(await runInvariant("signatureVerifies", { ...args, payload: "hello conformancE" })).toMatchObject({ outcome: "fail" });
    const flipped = { ...signature, v: signature.v === "00" ? "01" : "00" };
    expect(await runInvariant("signatureVerifies", { ...args, signature: flipped })).toMatchObject({ outcome: "fail" });
    expect(await runInvariant("signatureVerifies", { ...args, signature: { ...signature, v: "05" } })).toMatchObject({ outcome: "fail" });
  });

  it("handles NO_OP digests and SHA-256, and EIP-191 messages", async () => {
    const digest = keccak256(toHex("digest"));
    const signature = await turnkeyStyleSignature(digest);
    expect(await runInvariant("signatureVerifies", { signature, address: HARDHAT_0, payload: digest.slice(2), hashFunction: "HASH_FUNCTION_NO_OP" })).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("signatureVerifies", { signature, address: HARDHAT_0, payload: "abcd", hashFunction: "HASH_FUNCTION_NO_OP" })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/32-byte/) });
    const message = "sign in";
    const eip191 = await privateKeyToAccount(HARDHAT_KEY).signMessage({ message });
    const parts = { r: eip191.slice(2, 66), s: eip191.slice(66, 130), v: eip191.slice(130) };
    expect(await runInvariant("signatureVerifies", { signature: parts, address: HARDHAT_0, message })).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("signatureVerifies", { signature: parts, address: HARDHAT_1, message })).toMatchObject({ outcome: "fail" });
  });

  it("verifies EIP-712 typed data given as an object or as its JSON", async () => {
    const typedData = {
      domain: { name: "Conformance", version: "1", chainId: 1, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
      types: { Mail: [{ name: "from", type: "address" }, { name: "contents", type: "string" }] },
      primaryType: "Mail",
      message: { from: HARDHAT_1, contents: "hello" },
    } as const;
    const full = await privateKeyToAccount(HARDHAT_KEY).signTypedData(typedData);
    const signature = { r: full.slice(2, 66), s: full.slice(66, 130), v: full.slice(130) === "1b" ? "00" : "01" };
    expect(await runInvariant("signatureVerifies", { signature, address: HARDHAT_0, typedData })).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("signatureVerifies", { signature, address: HARDHAT_0, typedData: JSON.stringify(typedData) })).toMatchObject({ outcome: "pass" });
    const other = { ...typedData, message: { ...typedData.message, contents: "hellO" } };
    expect(await runInvariant("signatureVerifies", { signature, address: HARDHAT_0, typedData: other })).toMatchObject({ outcome: "fail" });
  });

  it("verifies ed25519 (RFC 8032 test 1) for a Solana address or a hex key", async () => {
    const pub = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
    const sig = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";
    const signature = { r: sig.slice(0, 64), s: sig.slice(64), v: "00" };
    const solana = base58.encode(Buffer.from(pub, "hex"));
    expect(await runInvariant("signatureVerifies", { curve: "ed25519", signature, address: solana, payload: "" })).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("signatureVerifies", { curve: "CURVE_ED25519", signature, address: pub, payload: "" })).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("signatureVerifies", { curve: "ed25519", signature, address: solana, payload: "00" })).toMatchObject({ outcome: "fail" });
  });

  it("fails clearly on malformed input", async () => {
    expect(await runInvariant("signatureVerifies", { address: HARDHAT_0, payload: "00" })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/signature\.r must be hex/) });
    expect(await runInvariant("signatureVerifies", { curve: "p256" })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/not supported/) });
  });
});

describe("transactionSignedBy", () => {
  const tx = { type: "eip1559", chainId: 11155111, nonce: 7, maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1_500_000_000n, gas: 21_000n, to: HARDHAT_1, value: parseEther("0.01") } as const;
  const unsigned = serializeTransaction(tx).slice(2);

  it("accepts viem's signature of the same transaction and rejects another signer or changed fields", async () => {
    const signed = (await privateKeyToAccount(HARDHAT_KEY).signTransaction(tx)).slice(2);
    expect(await runInvariant("transactionSignedBy", { signedTransaction: signed, unsignedTransaction: unsigned, address: HARDHAT_0 })).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("transactionSignedBy", { signedTransaction: `0x${signed}`, unsignedTransaction: unsigned, address: HARDHAT_1 })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/recovers/) });
    const otherNonce = (await privateKeyToAccount(HARDHAT_KEY).signTransaction({ ...tx, nonce: 8 })).slice(2);
    expect(await runInvariant("transactionSignedBy", { signedTransaction: otherNonce, unsignedTransaction: unsigned, address: HARDHAT_0 })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/differ/) });
  });

  it("fails on an unsigned transaction or malformed input", async () => {
    expect(await runInvariant("transactionSignedBy", { signedTransaction: unsigned, unsignedTransaction: unsigned, address: HARDHAT_0 })).toMatchObject({ outcome: "fail" });
    expect(await runInvariant("transactionSignedBy", { signedTransaction: "zz", unsignedTransaction: unsigned, address: HARDHAT_0 })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/must be hex/) });
  });
});

/** An export bundle in the published format, made with @turnkey/crypto's HPKE and a noble P-256 signer (not the emulator). */
function exportBundleFor(mnemonic: string, targetPublic: Uint8Array, organizationId: string) {
  const signer = p256.utils.randomSecretKey();
  const { encappedPublic, ciphertext } = JSON.parse(formatHpkeBuf(hpkeEncrypt({ plainTextBuf: new TextEncoder().encode(mnemonic), targetKeyBuf: targetPublic })));
  const data = Buffer.from(JSON.stringify({ encappedPublic, ciphertext, organizationId }));
  const sig = p256.sign(sha256(data), signer, { prehash: false, format: "der" });
  const signerPublic = Buffer.from(p256.getPublicKey(signer, false)).toString("hex");
  return { bundle: JSON.stringify({ version: "v1.0.0", data: data.toString("hex"), dataSignature: Buffer.from(sig).toString("hex"), enclaveQuorumPublic: signerPublic }), signerPublic };
}

describe("mnemonicDerives", () => {
  it("decrypts an export bundle made to the run's key and re-derives the accounts", async () => {
    const target = p256.utils.randomSecretKey();
    const org = "f9a31c64-d604-42e4-9bef-a773096afad7";
    const { bundle, signerPublic } = exportBundleFor(MNEMONIC, p256.getPublicKey(target, false), org);
    const args = { exportBundle: bundle, embeddedKey: Buffer.from(target).toString("hex"), organizationId: org, accounts: [{ path: "m/44'/60'/0'/0/1", address: HARDHAT_1 }] };
    expect(await runInvariant("mnemonicDerives", args)).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("mnemonicDerives", { ...args, signerPublicKey: signerPublic })).toMatchObject({ outcome: "pass" });
    expect(await runInvariant("mnemonicDerives", { ...args, accounts: [{ path: "m/44'/60'/0'/0/1", address: HARDHAT_0 }] })).toMatchObject({ outcome: "fail" });
    // Another organization, another signer, another key: each refused.
    expect(await runInvariant("mnemonicDerives", { ...args, organizationId: "00000000-0000-4000-8000-000000000000" })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/organization id/) });
    expect(await runInvariant("mnemonicDerives", { ...args, signerPublicKey: PRODUCTION_SIGNER_SIGN_PUBLIC_KEY })).toMatchObject({ outcome: "fail", message: expect.stringMatching(/signer key/) });
    expect(await runInvariant("mnemonicDerives", { ...args, embeddedKey: Buffer.from(p256.utils.randomSecretKey()).toString("hex") })).toMatchObject({ outcome: "fail" });
  });

  it("re-derives the published Hardhat accounts", async () => {
    const accounts = [
      { path: "m/44'/60'/0'/0/0", address: HARDHAT_0 },
      { path: "m/44'/60'/0'/0/1", address: HARDHAT_1.toLowerCase(), addressFormat: "ADDRESS_FORMAT_ETHEREUM" },
    ];
    expect(await runInvariant("mnemonicDerives", { mnemonic: MNEMONIC, accounts })).toMatchObject({ outcome: "pass" });
    const swapped = [{ path: "m/44'/60'/0'/0/0", address: HARDHAT_1 }];
    expect(await runInvariant("mnemonicDerives", { mnemonic: MNEMONIC, accounts: swapped })).toMatchObject({ outcome: "fail" });
  });

  it("says 'unavailable' when it has nothing to check, never 'pass'", async () => {
    expect(await runInvariant("mnemonicDerives", { accounts: [{ path: "m/44'/60'/0'/0/0", address: HARDHAT_0 }] })).toMatchObject({ outcome: "unavailable", message: expect.stringMatching(/no mnemonic/) });
    expect(await runInvariant("mnemonicDerives", { mnemonic: MNEMONIC, accounts: [{ path: "m/44'/501'/0'/0'", address: "x", addressFormat: "ADDRESS_FORMAT_SOLANA" }] })).toMatchObject({ outcome: "unavailable" });
  });
});
