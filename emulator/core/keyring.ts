/**
 * Key material in use: opens sealed mnemonics and private keys through the store's sealer,
 * and caches, per instance, wallet seeds (PBKDF2 is the slow step of every derivation), the
 * intermediate HD nodes derived from them and the account keys signing uses. All three hold
 * secrets: they live here, not in module state, so `clear` (reset, stop), `forget` (a deleted
 * wallet) and a new instance never see another's keys. Nothing here is ever logged.
 */
import { deriveKey, holdsNodesOf, mnemonicToSeed, type Curve, type DerivedKey, type HdNode, type NodeCache } from "../derivation/index.js";
import type { Sealer } from "./store/seal.js";
import { Lru } from "./lib/lru.js";

/** What the keyring reads of a wallet: its id and its sealed mnemonic (the wallets family's row). */
type SealedWallet = { id: string; mnemonicSealed: string };
/** What the keyring reads of a private key: its sealed key (the wallets family's row). */
type SealedPrivateKey = { privateKeySealed: string };

export class Keyring {
  private readonly seeds = new Lru<string, Uint8Array>(256);
  private readonly accountKeys = new Lru<string, DerivedKey>(4096);
  /** Intermediate HD nodes, scoped by wallet id: sibling accounts reuse their parent chain. */
  private readonly nodes = new Lru<string, HdNode>(4096);

  constructor(private readonly sealer: Sealer) {}

  sealMnemonic(mnemonic: string): string {
    return this.sealer.seal(mnemonic);
  }

  sealPrivateKey(key: Uint8Array): string {
    return this.sealer.seal(key);
  }

  mnemonicOf(wallet: SealedWallet): string {
    return this.sealer.openText(wallet.mnemonicSealed);
  }

  /** The BIP39 seed of a wallet, computed once per wallet and kept (LRU) in memory. */
  seedOf(wallet: SealedWallet): Uint8Array {
    const hit = this.seeds.get(wallet.id);
    if (hit) return hit;
    const seed = mnemonicToSeed(this.mnemonicOf(wallet));
    this.remember(wallet.id, seed);
    return seed;
  }

  /** Caches a seed the caller just computed (e.g. for a wallet it is creating). */
  remember(walletId: string, seed: Uint8Array): void {
    this.seeds.set(walletId, seed);
  }

  /** This instance's node cache for derivations from the seed of wallet `walletId`. */
  nodeCache(walletId: string): NodeCache {
    return { nodes: this.nodes, scope: walletId };
  }

  /** The key pair of one wallet account, derived once and kept (LRU): signing reuses it. */
  accountKey(wallet: SealedWallet, curve: Curve, path: string): DerivedKey {
    const id = `${wallet.id}|${curve}|${path}`;
    let key = this.accountKeys.get(id);
    if (!key) {
      key = deriveKey(this.seedOf(wallet), curve, path, { cache: this.nodeCache(wallet.id) });
      this.accountKeys.set(id, key);
    }
    return key;
  }

  privateKeyOf(key: SealedPrivateKey): Uint8Array {
    return this.sealer.open(key.privateKeySealed);
  }

  /** Whether any cached HD node comes from `seed` (lets tests prove what reset and forget drop). */
  holdsNodesOf(seed: Uint8Array): boolean {
    return holdsNodesOf(this.nodes, seed);
  }

  forget(walletId: string): void {
    const prefix = `${walletId}|`;
    this.seeds.delete(walletId);
    this.accountKeys.deleteWhere((id) => id.startsWith(prefix));
    this.nodes.deleteWhere((id) => id.startsWith(prefix));
  }

  clear(): void {
    this.seeds.clear();
    this.accountKeys.clear();
    this.nodes.clear();
  }
}
