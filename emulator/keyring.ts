/**
 * Key material in use: opens sealed mnemonics and private keys through the store's sealer,
 * and caches wallet seeds (PBKDF2 is the slow step of every derivation) per instance.
 * Nothing here is ever logged.
 */
import { deriveKey, mnemonicToSeed, type Curve, type DerivedKey } from "./chains/index.js";
import type { Sealer } from "./store/seal.js";
import type { WalletRow } from "./store/wallets.js";
import type { PrivateKeyRow } from "./store/private-keys.js";

const MAX_SEEDS = 256;
const MAX_ACCOUNT_KEYS = 4096;

export class Keyring {
  private readonly seeds = new Map<string, Uint8Array>();
  private readonly accountKeys = new Map<string, DerivedKey>();

  constructor(private readonly sealer: Sealer) {}

  sealMnemonic(mnemonic: string): string {
    return this.sealer.seal(mnemonic);
  }

  sealPrivateKey(key: Uint8Array): string {
    return this.sealer.seal(key);
  }

  mnemonicOf(wallet: WalletRow): string {
    return this.sealer.openText(wallet.mnemonicSealed);
  }

  /** The BIP39 seed of a wallet, computed once per wallet and kept (LRU) in memory. */
  seedOf(wallet: WalletRow): Uint8Array {
    const hit = this.seeds.get(wallet.id);
    if (hit) {
      this.seeds.delete(wallet.id);
      this.seeds.set(wallet.id, hit);
      return hit;
    }
    const seed = mnemonicToSeed(this.mnemonicOf(wallet));
    this.remember(wallet.id, seed);
    return seed;
  }

  /** Caches a seed the caller just computed (e.g. for a wallet it is creating). */
  remember(walletId: string, seed: Uint8Array): void {
    if (this.seeds.size >= MAX_SEEDS) this.seeds.delete(this.seeds.keys().next().value!);
    this.seeds.set(walletId, seed);
  }

  /** The key pair of one wallet account, derived once and kept (LRU): signing reuses it. */
  accountKey(wallet: WalletRow, curve: Curve, path: string): DerivedKey {
    const id = `${wallet.id}|${curve}|${path}`;
    let key = this.accountKeys.get(id);
    if (!key) {
      key = deriveKey(this.seedOf(wallet), curve, path);
      if (this.accountKeys.size >= MAX_ACCOUNT_KEYS) this.accountKeys.delete(this.accountKeys.keys().next().value!);
      this.accountKeys.set(id, key);
    }
    return key;
  }

  privateKeyOf(key: PrivateKeyRow): Uint8Array {
    return this.sealer.open(key.privateKeySealed);
  }

  forget(walletId: string): void {
    this.seeds.delete(walletId);
    for (const id of this.accountKeys.keys()) if (id.startsWith(`${walletId}|`)) this.accountKeys.delete(id);
  }

  clear(): void {
    this.seeds.clear();
    this.accountKeys.clear();
  }
}
