/**
 * deriveKey(seed, curve, path): the key pair of one wallet account.
 *
 * secp256k1 uses BIP-32 (which SLIP-10 reproduces for that curve), ed25519 and P-256 use SLIP-10.
 *
 * Non-hardened ed25519 segments (decision; the service's behaviour is UNCONFIRMED):
 * SLIP-10 defines no non-hardened ed25519 child, yet the service's own docs publish
 * ed25519 default paths with non-hardened tails (Solana m/44'/501'/0'/0, Sui and TON
 * m/44'/x'/0'/0/0), so the service must accept them. By default we derive such a
 * segment as if it were hardened (i -> i'), the convention of Ledger-style ed25519
 * wallets; `{ ed25519NonHardened: "reject" }` turns this into an InputError instead.
 *
 * A small LRU of intermediate nodes, keyed by a hash of the seed, the curve and the
 * path prefix, makes sibling derivations (m/44'/60'/0'/0/i for many i) reuse the
 * shared parent chain instead of recomputing it from the master.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { InputError, quote } from "../../input-error.js";
import type { Curve } from "./curve.js";
import type { HdNode } from "./node.js";
import { HARDENED_OFFSET, parsePath } from "./path.js";
import { slip10Master } from "./slip10.js";

export interface DerivedKey {
  privateKey: Uint8Array;
  /** Compressed 33 bytes for secp256k1 and P-256; 32 bytes for ed25519. */
  publicKey: Uint8Array;
}

export interface DeriveOptions {
  /** What to do with a non-hardened segment on ed25519: derive it hardened (default) or reject. */
  ed25519NonHardened?: "harden" | "reject";
  /** Skip the node cache (used to measure it). */
  noCache?: boolean;
}

function master(curve: Curve, seed: Uint8Array): HdNode {
  switch (curve) {
    case "CURVE_SECP256K1":
      return slip10Master("secp256k1", seed);
    case "CURVE_ED25519":
      return slip10Master("ed25519", seed);
    case "CURVE_P256":
      return slip10Master("nist256p1", seed);
    default:
      throw new InputError(`invalid curve ${quote(String(curve))}`, "curve");
  }
}

// ---- LRU of intermediate nodes -------------------------------------------------

const CACHE_LIMIT = 4096;
const cache = new Map<string, HdNode>();

function cacheGet(key: string): HdNode | undefined {
  const node = cache.get(key);
  if (node) {
    cache.delete(key);
    cache.set(key, node);
  }
  return node;
}

function cachePut(key: string, node: HdNode): void {
  cache.set(key, node);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
}

/** Drops every cached node (for example when the emulator is reset). */
export function clearDerivationCache(): void {
  cache.clear();
}

// ---------------------------------------------------------------------------------

function resolveIndices(curve: Curve, path: string, opts: DeriveOptions): number[] {
  const indices = parsePath(path);
  if (curve !== "CURVE_ED25519") return indices;
  return indices.map((index, i) => {
    if (index >= HARDENED_OFFSET) return index;
    if (opts.ed25519NonHardened === "reject") {
      throw new InputError(
        `invalid path ${quote(path)}: segment ${i + 1} ("${index}") must be hardened for CURVE_ED25519`,
        "path",
      );
    }
    return index + HARDENED_OFFSET;
  });
}

/** Node at `path` (parsed), using and filling the cache. */
export function deriveNode(seed: Uint8Array, curve: Curve, path: string, opts: DeriveOptions = {}): HdNode {
  const indices = resolveIndices(curve, path, opts);
  if (opts.noCache) return indices.reduce((node, i) => node.derive(i), master(curve, seed));

  const base = `${bytesToHex(sha256(seed))}|${curve}|`;
  const keyAt = (depth: number) => base + indices.slice(0, depth).join("/");

  let depth = indices.length;
  let node: HdNode | undefined;
  for (; depth >= 0; depth--) {
    node = cacheGet(keyAt(depth));
    if (node) break;
  }
  if (!node) {
    depth = 0;
    node = master(curve, seed);
    cachePut(keyAt(0), node);
  }
  for (let d = depth; d < indices.length; d++) {
    node = node.derive(indices[d]!);
    cachePut(keyAt(d + 1), node);
  }
  return node;
}

/** Private and public key of the account at `path` on `curve`. */
export function deriveKey(seed: Uint8Array, curve: Curve, path: string, opts: DeriveOptions = {}): DerivedKey {
  const node = deriveNode(seed, curve, path, opts);
  // Copies: callers must not be able to alter the cached nodes.
  return { privateKey: node.privateKey.slice(), publicKey: node.publicKey.slice() };
}
