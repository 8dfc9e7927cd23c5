/**
 * Wallets and private keys through @turnkey/sdk-server. Addresses of the fixture wallet are
 * checked against independent derivations (viem, @scure/bip32 + bitcoinjs-lib, web3.js over
 * a SLIP-10 derivation done here with node:crypto HMAC); per-format encodings are checked
 * against chain SDKs in emulator/derivation.
 */
import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { mnemonicToAccount } from "viem/accounts";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import * as bitcoin from "bitcoinjs-lib";
import { Keypair } from "@solana/web3.js";
import { DEFAULT_ETHEREUM_ACCOUNTS, DEFAULT_SOLANA_ACCOUNTS, defaultEthereumAccountAtIndex } from "@turnkey/sdk-server";
import { ADDRESS_FORMATS, curvesFor, defaultPathFor } from "../emulator/derivation/index.js";
import { sdkClient, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const MNEMONIC = "test test test test test test test test test test test junk";

const emu = useTestEmulator();

/** SLIP-10 ed25519, written out here from the spec as an oracle independent of emulator/derivation. */
function slip10Ed25519(seed: Uint8Array, path: number[]): Uint8Array {
  let I = createHmac("sha512", "ed25519 seed").update(seed).digest();
  for (const index of path) {
    const data = Buffer.concat([Buffer.alloc(1), I.subarray(0, 32), Buffer.from([(index >>> 24) | 0x80, (index >>> 16) & 0xff, (index >>> 8) & 0xff, index & 0xff])]);
    I = createHmac("sha512", I.subarray(32)).update(data).digest();
  }
  return I.subarray(0, 32);
}

describe("the fixture wallet", () => {
  it("holds Anvil's account 0 and agrees with independent derivations", async () => {
    const c = sdkClient(emu);
    const { accounts } = await c.getWalletAccounts({ walletId: emu.info.walletId! });
    const byPath = Object.fromEntries(accounts.map((a) => [`${a.addressFormat} ${a.path}`, a]));
    expect(byPath["ADDRESS_FORMAT_ETHEREUM m/44'/60'/0'/0/0"]!.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    for (const i of [0, 1, 2]) {
      expect(byPath[`ADDRESS_FORMAT_ETHEREUM m/44'/60'/0'/0/${i}`]!.address).toBe(mnemonicToAccount(MNEMONIC, { addressIndex: i }).address);
    }
    const seed = mnemonicToSeedSync(MNEMONIC);
    const root = HDKey.fromMasterSeed(seed);
    const p2wpkh = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(root.derive("m/84'/0'/0'/0/0").publicKey!) }).address;
    expect(byPath["ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH m/84'/0'/0'/0/0"]!.address).toBe(p2wpkh);
    const tb = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(root.derive("m/84'/1'/0'/0/0").publicKey!), network: bitcoin.networks.testnet }).address;
    expect(byPath["ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH m/84'/1'/0'/0/0"]!.address).toBe(tb);
    const sol = Keypair.fromSeed(slip10Ed25519(seed, [44, 501, 0, 0])).publicKey.toBase58();
    expect(byPath["ADDRESS_FORMAT_SOLANA m/44'/501'/0'/0'"]!.address).toBe(sol);
    // secp256k1 account keys are compressed; ed25519 keys are 32 bytes.
    expect(byPath["ADDRESS_FORMAT_ETHEREUM m/44'/60'/0'/0/0"]!.publicKey).toBe(Buffer.from(root.derive("m/44'/60'/0'/0/0").publicKey!).toString("hex"));
    expect(byPath["ADDRESS_FORMAT_SOLANA m/44'/501'/0'/0'"]!.publicKey).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("wallet lifecycle", () => {
  it("creates a wallet with an account in every address format, lists, pages and deletes", async () => {
    const c = sdkClient(emu);
    const accounts = ADDRESS_FORMATS.map((f) => ({ curve: curvesFor(f)[0]!, pathFormat: "PATH_FORMAT_BIP32" as const, path: defaultPathFor(f, 0), addressFormat: f }));
    const created = await c.createWallet({ walletName: "every-format", accounts, mnemonicLength: 24 });
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(created.addresses).toHaveLength(38);
    expect(new Set(created.addresses).size).toBeGreaterThan(20);

    const { wallet } = await c.getWallet({ walletId: created.walletId });
    expect(wallet).toMatchObject({ walletName: "every-format", exported: false, imported: false });

    // Page through the accounts 10 at a time (the default page size), in creation order.
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await c.getWalletAccounts({ walletId: created.walletId, paginationOptions: { limit: "10", ...(after ? { after } : {}) } });
      seen.push(...page.accounts.map((a) => a.address));
      if (page.accounts.length < 10) break;
      after = page.accounts.at(-1)!.walletAccountId;
    }
    expect(seen).toEqual(created.addresses);
    const withDetails = await c.getWalletAccounts({ walletId: created.walletId, includeWalletDetails: true });
    expect(withDetails.accounts).toHaveLength(10);
    expect(withDetails.accounts[0]!.walletDetails?.walletId).toBe(created.walletId);

    const one = await c.getWalletAccount({ walletId: created.walletId, address: created.addresses[2]! });
    expect(one.account.addressFormat).toBe("ADDRESS_FORMAT_ETHEREUM");
    const byPath = await c.getWalletAccount({ walletId: created.walletId, path: accounts[2]!.path });
    expect(byPath.account.address).toBe(created.addresses[2]);

    // Without an export, deletion needs deleteWithoutExport.
    await expect(c.deleteWallets({ walletIds: [created.walletId] })).rejects.toThrow(/not been exported/);
    await c.deleteWallets({ walletIds: [created.walletId], deleteWithoutExport: true });
    const { wallets } = await c.getWallets({});
    expect(wallets.map((w) => w.walletId)).not.toContain(created.walletId);
  });

  it("adds accounts with the SDK's default helpers, and derives without storing when persist is false", async () => {
    const c = sdkClient(emu);
    const { walletId } = await c.createWallet({ walletName: "sdk-defaults", accounts: [...DEFAULT_ETHEREUM_ACCOUNTS, ...DEFAULT_SOLANA_ACCOUNTS] });
    const more = Array.from({ length: 5 }, (_, i) => defaultEthereumAccountAtIndex(i + 1));
    const added = await c.createWalletAccounts({ walletId, accounts: more });
    expect(added.addresses).toHaveLength(5);
    const preview = await c.createWalletAccounts({ walletId, accounts: [defaultEthereumAccountAtIndex(9)], persist: false });
    expect(preview.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const { accounts } = await c.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } });
    expect(accounts).toHaveLength(7);
    expect(accounts.map((a) => a.address)).not.toContain(preview.addresses[0]);

    const [first] = accounts;
    await expect(c.deleteWalletAccounts({ walletAccountIds: [first!.walletAccountId] })).rejects.toThrow(/not been exported/);
    await c.deleteWalletAccounts({ walletAccountIds: [first!.walletAccountId], deleteWithoutExport: true });
    expect((await c.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts).toHaveLength(6);
    await c.updateWallet({ walletId, walletName: "renamed" });
    expect((await c.getWallet({ walletId })).wallet.walletName).toBe("renamed");
  });

  it("answers bad accounts with 400s naming the field, writing nothing", async () => {
    const c = sdkClient(emu);
    const eth = { curve: "CURVE_SECP256K1" as const, pathFormat: "PATH_FORMAT_BIP32" as const, path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const };
    const cases: [unknown, RegExp][] = [
      [{ walletName: "x", accounts: [{ ...eth, addressFormat: "ADDRESS_FORMAT_SOLANA" }] }, /accounts\[0\]\.curve/],
      [{ walletName: "x", accounts: [{ ...eth, path: "m/44'/abc" }] }, /accounts\[0\]\.path/],
      [{ walletName: "x", accounts: [eth, eth] }, /accounts\[1\]\.path/],
      [{ walletName: "x", accounts: [eth], mnemonicLength: 13 }, /mnemonicLength/],
      [{ walletName: "x", accounts: [{ ...eth, curve: "CURVE_ED25519", addressFormat: "ADDRESS_FORMAT_SPARK_MAINNET" }] }, /accounts\[0\]\.curve/],
    ];
    for (const [params, field] of cases) {
      const before = storeCounts(emu);
      await expect(c.createWallet(params as never)).rejects.toThrow(field);
      expect(storeCounts(emu)).toEqual(before);
    }
    const { walletId } = await c.createWallet({ walletName: "reuse", accounts: [eth] });
    const before = storeCounts(emu);
    await expect(c.createWalletAccounts({ walletId, accounts: [eth] })).rejects.toThrow(/already used/);
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("private keys", () => {
  it("creates keys on every curve with their addresses, tags, lists and deletes them", async () => {
    const c = sdkClient(emu);
    const tag = await c.createPrivateKeyTag({ privateKeyTagName: "hot", privateKeyIds: [] });
    const r = await c.createPrivateKeys({
      privateKeys: [
        { privateKeyName: "eth-key", curve: "CURVE_SECP256K1", privateKeyTags: [tag.privateKeyTagId], addressFormats: ["ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_TRON"] },
        { privateKeyName: "sol-key", curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_SOLANA"] },
        { privateKeyName: "p256-key", curve: "CURVE_P256", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_COMPRESSED"] },
      ],
    });
    expect(r.privateKeys).toHaveLength(3);
    const { privateKey } = await c.getPrivateKey({ privateKeyId: r.privateKeys[0]!.privateKeyId! });
    // secp256k1 private keys carry the uncompressed public key; the address is its Ethereum form.
    expect(privateKey.publicKey).toMatch(/^04[0-9a-f]{128}$/);
    const { publicKeyToAddress } = await import("viem/accounts");
    expect(privateKey.addresses.find((a) => a.format === "ADDRESS_FORMAT_ETHEREUM")!.address).toBe(publicKeyToAddress(`0x${privateKey.publicKey}`));
    expect(privateKey.privateKeyTags).toEqual([tag.privateKeyTagId]);
    expect((await c.getPrivateKeys({})).privateKeys.map((k) => k.privateKeyName)).toEqual(["eth-key", "sol-key", "p256-key"]);
    expect((await c.listPrivateKeyTags({})).privateKeyTags.map((t) => t.tagName)).toEqual(["hot"]);

    const before = storeCounts(emu);
    await expect(c.createPrivateKeys({ privateKeys: [{ privateKeyName: "bad", curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }] })).rejects.toThrow(/addressFormats\[0\]/);
    expect(storeCounts(emu)).toEqual(before);

    await expect(c.deletePrivateKeys({ privateKeyIds: [r.privateKeys[1]!.privateKeyId!] })).rejects.toThrow(/not been exported/);
    await c.deletePrivateKeys({ privateKeyIds: [r.privateKeys[1]!.privateKeyId!], deleteWithoutExport: true });
    expect((await c.getPrivateKeys({})).privateKeys).toHaveLength(2);
  });
});
