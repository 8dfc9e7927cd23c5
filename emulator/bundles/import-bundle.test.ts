import { describe, it, expect } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { Keypair } from "@solana/web3.js";
import { encryptPrivateKeyToBundle, encryptWalletToBundle } from "@turnkey/crypto";
import { makeImportBundle, openEncryptedImportBundle, parseImportedPrivateKey, parseImportedWallet } from "./import-bundle.js";
import { enclaveKeysFromSeed, enclavePublicKeysHex } from "./enclave-keys.js";

const keys = enclaveKeysFromSeed(new Uint8Array(32).fill(9));
const signerHex = enclavePublicKeysHex(keys).signer;
const organizationId = "5a4c1f0e-2f9c-4d5e-8a7b-000000000001";
const userId = "7b3e9a10-1c2d-4e5f-9a8b-000000000002";
const MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

describe("import bundles", () => {
  it("encryptWalletToBundle accepts our import bundle and we recover the mnemonic", async () => {
    const made = makeImportBundle({ organizationId, userId, signerKey: keys.signer });
    const encrypted = await encryptWalletToBundle({
      mnemonic: MNEMONIC,
      importBundle: made.importBundle,
      userId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerHex,
    });
    const pt = openEncryptedImportBundle(encrypted, made.targetPrivateKey, made.targetPublicHex);
    expect(parseImportedWallet(pt)).toBe(MNEMONIC);
  });

  it("encryptPrivateKeyToBundle (HEXADECIMAL, with 0x) round-trips to the raw key", async () => {
    const made = makeImportBundle({ organizationId, userId, signerKey: keys.signer });
    const hex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    const encrypted = await encryptPrivateKeyToBundle({
      privateKey: "0x" + hex,
      keyFormat: "HEXADECIMAL",
      importBundle: made.importBundle,
      userId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerHex,
    });
    const pt = openEncryptedImportBundle(encrypted, made.targetPrivateKey, made.targetPublicHex);
    expect(bytesToHex(parseImportedPrivateKey(pt, "HEXADECIMAL"))).toBe(hex);
  });

  it("encryptPrivateKeyToBundle (SOLANA) round-trips to the ed25519 seed of a web3.js keypair", async () => {
    const kp = Keypair.fromSeed(new Uint8Array(32).fill(3));
    const solanaSecret = base58.encode(kp.secretKey);
    const made = makeImportBundle({ organizationId, userId, signerKey: keys.signer });
    const encrypted = await encryptPrivateKeyToBundle({
      privateKey: solanaSecret,
      keyFormat: "SOLANA",
      importBundle: made.importBundle,
      userId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerHex,
    });
    const pt = openEncryptedImportBundle(encrypted, made.targetPrivateKey, made.targetPublicHex);
    expect(parseImportedPrivateKey(pt, "SOLANA")).toEqual(kp.secretKey.subarray(0, 32));
    // Client-side string forms decode the same way the SDK does.
    expect(parseImportedPrivateKey(solanaSecret, "SOLANA")).toEqual(kp.secretKey.subarray(0, 32));
  });

  it("the SDK rejects our bundle for another user, organization or signer key", async () => {
    const made = makeImportBundle({ organizationId, userId, signerKey: keys.signer });
    const base = { mnemonic: MNEMONIC, importBundle: made.importBundle };
    await expect(encryptWalletToBundle({ ...base, userId: "other", organizationId, dangerouslyOverrideSignerPublicKey: signerHex })).rejects.toThrow(/user id/);
    await expect(encryptWalletToBundle({ ...base, userId, organizationId: "other", dangerouslyOverrideSignerPublicKey: signerHex })).rejects.toThrow(/organization id/);
    await expect(
      encryptWalletToBundle({ ...base, userId, organizationId, dangerouslyOverrideSignerPublicKey: enclavePublicKeysHex(keys).tlsFetcher }),
    ).rejects.toThrow(/signer key/);
  });

  it("rejects an encrypted bundle sealed to a different import target", async () => {
    const a = makeImportBundle({ organizationId, userId, signerKey: keys.signer });
    const b = makeImportBundle({ organizationId, userId, signerKey: keys.signer });
    const encrypted = await encryptWalletToBundle({
      mnemonic: MNEMONIC, importBundle: a.importBundle, userId, organizationId, dangerouslyOverrideSignerPublicKey: signerHex,
    });
    expect(() => openEncryptedImportBundle(encrypted, b.targetPrivateKey, b.targetPublicHex)).toThrow(/decrypt/);
    expect(() => openEncryptedImportBundle("{}", a.targetPrivateKey, a.targetPublicHex)).toThrow(/encappedPublic/);
  });

  it("validates mnemonics and key lengths", () => {
    expect(() => parseImportedWallet(new TextEncoder().encode("legal winner thank year wave sausage worth useful legal winner thank thank"))).toThrow(
      /invalid mnemonic/,
    );
    expect(() => parseImportedPrivateKey(new Uint8Array(31), "HEXADECIMAL")).toThrow(/32 bytes/);
    expect(() => parseImportedPrivateKey("zz", "HEXADECIMAL")).toThrow(/hex/);
    expect(() => parseImportedPrivateKey(base58.encode(new Uint8Array(32)), "SOLANA")).toThrow(/64 bytes/);
  });
});
