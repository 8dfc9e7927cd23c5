/** BIP-32 derivation on secp256k1, delegated to @scure/bip32. */
import { HDKey } from "@scure/bip32";
import type { HdNode } from "./node.js";
import { parsePath } from "./path.js";

class Bip32Node implements HdNode {
  constructor(private readonly key: HDKey) {}
  get privateKey(): Uint8Array {
    return this.key.privateKey!;
  }
  get publicKey(): Uint8Array {
    return this.key.publicKey!;
  }
  get chainCode(): Uint8Array {
    return this.key.chainCode!;
  }
  derive(index: number): Bip32Node {
    return new Bip32Node(this.key.deriveChild(index));
  }
  /** Extended private key (xprv…), mainly for tests against published vectors. */
  get xprv(): string {
    return this.key.privateExtendedKey;
  }
  get xpub(): string {
    return this.key.publicExtendedKey;
  }
}

export type { Bip32Node };

/** Node at `path` below `node` (no caching; see derive.ts for the cached entry). */
export function bip32DerivePath(node: Bip32Node, path: string): Bip32Node {
  return parsePath(path).reduce((n, i) => n.derive(i), node);
}

/** Master node of a BIP-32 secp256k1 tree ("Bitcoin seed"). */
export function bip32Master(seed: Uint8Array): Bip32Node {
  return new Bip32Node(HDKey.fromMasterSeed(seed));
}
