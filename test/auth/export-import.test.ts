import { beforeAll, describe, expect, it } from "vitest";
import { decryptExportBundle, encryptPrivateKeyToBundle, encryptWalletToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { mnemonicToAccount, privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { sdkClient, startTestEmulator, storeCounts } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { info, type Info } from "./support.js";

const MNEMONIC = "test test test test test test test test test test test junk";
const ETH = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" } as const;

const emu = useTestEmulator();
let i: Info;
beforeAll(async () => {
  i = await info(emu);
});

describe("enclave keys", () => {
  it("publishes three distinct uncompressed P-256 keys, stable across instances of one fixture", async () => {
    for (const k of [i.signerPublicKey, i.tlsFetcherPublicKey, i.notarizerPublicKey]) expect(k).toMatch(/^04[0-9a-f]{128}$/);
    expect(new Set([i.signerPublicKey, i.tlsFetcherPublicKey, i.notarizerPublicKey]).size).toBe(3);
    const other = await startTestEmulator();
    try {
      expect((await info(other)).signerPublicKey).toBe(i.signerPublicKey);
    } finally {
      await other.stop();
    }
  });
});

describe("export", () => {
  it("exports the fixture wallet: @turnkey/crypto decrypts the mnemonic, and the wallet is marked exported", async () => {
    const target = generateP256KeyPair();
    const c = sdkClient(emu);
    const { exportBundle, walletId } = await c.exportWallet({ walletId: i.walletId, targetPublicKey: target.publicKeyUncompressed });
    expect(walletId).toBe(i.walletId);
    const mnemonic = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId: i.organizationId,
      returnMnemonic: true,
      dangerouslyOverrideSignerPublicKey: i.signerPublicKey,
    });
    expect(mnemonic).toBe(MNEMONIC);
    expect((await c.getWallet({ walletId: i.walletId })).wallet.exported).toBe(true);
    // Against the production key (no override) the SDK refuses the bundle.
    await expect(decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId: i.organizationId, returnMnemonic: true })).rejects.toThrow();
  });

  it("exports one wallet account's private key, which viem maps to the account's address", async () => {
    const target = generateP256KeyPair();
    const address = mnemonicToAccount(MNEMONIC).address;
    const { exportBundle } = await sdkClient(emu).exportWalletAccount({ address, targetPublicKey: target.publicKey });
    const hex = await decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId: i.organizationId, returnMnemonic: false, dangerouslyOverrideSignerPublicKey: i.signerPublicKey });
    expect(privateKeyToAccount(`0x${hex}`).address).toBe(address);
  });

  it("refuses an invalid target key, writing nothing", async () => {
    const before = storeCounts(emu);
    await expect(sdkClient(emu).exportWallet({ walletId: i.walletId, targetPublicKey: "04abcd" })).rejects.toThrow(/targetPublicKey/);
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("import", () => {
  it("imports a wallet encrypted by @turnkey/crypto; its addresses match viem's derivation", async () => {
    const c = sdkClient(emu);
    const userId = emu.info.rootUserId;
    const { importBundle } = await c.initImportWallet({ userId });
    const mnemonic = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
    const encryptedBundle = await encryptWalletToBundle({ mnemonic, importBundle, userId, organizationId: i.organizationId, dangerouslyOverrideSignerPublicKey: i.signerPublicKey });
    const { walletId, addresses } = await c.importWallet({ userId, walletName: "imported", encryptedBundle, accounts: [ETH] });
    expect(addresses).toEqual([mnemonicToAccount(mnemonic).address]);
    expect((await c.getWallet({ walletId })).wallet.imported).toBe(true);
    // The target key is single-use.
    await expect(c.importWallet({ userId, walletName: "again", encryptedBundle, accounts: [ETH] })).rejects.toThrow(/init_import_wallet/);
  });

  it("imports a private key encrypted by @turnkey/crypto", async () => {
    const c = sdkClient(emu);
    const userId = emu.info.rootUserId;
    const { importBundle } = await c.initImportPrivateKey({ userId });
    const pk = generatePrivateKey();
    const encryptedBundle = await encryptPrivateKeyToBundle({ privateKey: pk.slice(2), keyFormat: "HEXADECIMAL", importBundle, userId, organizationId: i.organizationId, dangerouslyOverrideSignerPublicKey: i.signerPublicKey });
    const { addresses } = await c.importPrivateKey({ userId, privateKeyName: "imported-key", encryptedBundle, curve: "CURVE_SECP256K1", addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] });
    expect(addresses[0]!.address).toBe(privateKeyToAccount(pk).address);
  });

  it("refuses a bundle sealed to another target, writing nothing", async () => {
    const c = sdkClient(emu);
    const userId = emu.info.rootUserId;
    const first = (await c.initImportWallet({ userId })).importBundle;
    const encryptedBundle = await encryptWalletToBundle({ mnemonic: MNEMONIC, importBundle: first, userId, organizationId: i.organizationId, dangerouslyOverrideSignerPublicKey: i.signerPublicKey });
    await c.initImportWallet({ userId }); // replaces the pending target
    const before = storeCounts(emu);
    await expect(c.importWallet({ userId, walletName: "x", encryptedBundle, accounts: [ETH] })).rejects.toThrow(/decrypt/);
    expect(storeCounts(emu)).toEqual(before);
  });
});
