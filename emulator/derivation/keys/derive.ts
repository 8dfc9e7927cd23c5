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
 * A caller may pass a node cache (an LRU of intermediate nodes, keyed by a hash of the seed,
 * the curve and the path prefix) so sibling derivations (m/44'/60'/0'/0/i for many i) reuse
 * the shared parent chain instead of recomputing it from the master. The nodes hold private
 * keys, so this module keeps none: the emulator's cache is a member of each instance's
 * Keyring, dropped with it on reset, on forget (by scope) and on stop.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { documentedInputError, InputError, quote } from "../../core/input-error.js";
import type { Lru } from "../../core/lib/lru.js";
import type { Curve } from "./curve.js";
import type { HdNode } from "./node.js";
import { formatPath, HARDENED_OFFSET, parsePath } from "./path.js";
import { slip10Master } from "./slip10.js";

export interface DerivedKey {
  privateKey: Uint8Array;
  /** Compressed 33 bytes for secp256k1 and P-256; 32 bytes for ed25519. */
  publicKey: Uint8Array;
}

export interface DeriveOptions {
  /** What to do with a non-hardened segment on ed25519: derive it hardened (default) or reject. */
  ed25519NonHardened?: "harden" | "reject";
  /** Reuse and fill these intermediate nodes; without it every call derives from the master. */
  cache?: NodeCache;
}

/** Intermediate HD nodes, keyed `${scope}|${seedFingerprint(seed)}|${curve}|${path prefix}`. */
export type NodeCache = { nodes: Lru<string, HdNode>; scope: string };

/** The hex SHA-256 of a seed: how a node cache names the seed its nodes come from. */
export function seedFingerprint(seed: Uint8Array): string {
  return bytesToHex(sha256(seed));
}

/** Whether `nodes` holds any node derived from `seed`. */
export function holdsNodesOf(nodes: Lru<string, HdNode>, seed: Uint8Array): boolean {
  const needle = `|${seedFingerprint(seed)}|`;
  for (const key of nodes.keys()) if (key.includes(needle)) return true;
  return false;
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
      throw documentedInputError("INVALID_CURVE", quote(String(curve)), "curve");
  }
}

function resolveIndices(curve: Curve, path: string | readonly number[], opts: DeriveOptions): number[] {
  const indices = typeof path === "string" ? parsePath(path) : [...path];
  if (curve !== "CURVE_ED25519") return indices;
  return indices.map((index, i) => {
    if (index >= HARDENED_OFFSET) return index;
    if (opts.ed25519NonHardened === "reject") {
      throw new InputError(
        `invalid path ${quote(typeof path === "string" ? path : formatPath(path))}: segment ${i + 1} ("${index}") must be hardened for CURVE_ED25519`,
        "path",
      );
    }
    return index + HARDENED_OFFSET;
  });
}

/** Node at `path` (a path string, or its indices already parsed), using and filling `opts.cache` when given. */
export function deriveNode(seed: Uint8Array, curve: Curve, path: string | readonly number[], opts: DeriveOptions = {}): HdNode {
  const indices = resolveIndices(curve, path, opts);
  const cache = opts.cache;
  if (!cache) return indices.reduce((node, i) => node.derive(i), master(curve, seed));

  const base = `${cache.scope}|${seedFingerprint(seed)}|${curve}|`;
  const keyAt = (depth: number) => base + indices.slice(0, depth).join("/");

  let depth = indices.length;
  let node: HdNode | undefined;
  for (; depth >= 0; depth--) {
    node = cache.nodes.get(keyAt(depth));
    if (node) break;
  }
  if (!node) {
    depth = 0;
    node = master(curve, seed);
    cache.nodes.set(keyAt(0), node);
  }
  for (let d = depth; d < indices.length; d++) {
    node = node.derive(indices[d]!);
    cache.nodes.set(keyAt(d + 1), node);
  }
  return node;
}

/** Private and public key of the account at `path` (a path string, or its indices already parsed) on `curve`. */
export function deriveKey(seed: Uint8Array, curve: Curve, path: string | readonly number[], opts: DeriveOptions = {}): DerivedKey {
  const node = deriveNode(seed, curve, path, opts);
  // Copies: callers must not be able to alter the cached nodes.
  return { privateKey: node.privateKey.slice(), publicKey: node.publicKey.slice() };
}
