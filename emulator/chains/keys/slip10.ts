/**
 * SLIP-0010 derivation for ed25519 and NIST P-256 (nist256p1), written over
 * @noble/hashes HMAC-SHA512 and @noble/curves.
 *
 * - ed25519 supports hardened children only (SLIP-10); `derive` throws on a
 *   non-hardened index. What the service does with such paths is decided in derive.ts.
 * - P-256 supports both; an out-of-range intermediate is retried with
 *   0x01 || IR || ser32(i) as SLIP-10 prescribes (and the master with HMAC(key, I)).
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { HARDENED_OFFSET } from "./path.js";
import type { HdNode } from "./node.js";

export type Slip10Curve = "ed25519" | "nist256p1";

const MASTER_KEY: Record<Slip10Curve, Uint8Array> = {
  ed25519: utf8ToBytes("ed25519 seed"),
  nist256p1: utf8ToBytes("Nist256p1 seed"),
};

const P256_N = p256.Point.CURVE().n;

function ser32(i: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, i >>> 0, false);
  return out;
}

const toBig = (b: Uint8Array): bigint => BigInt("0x" + bytesToHex(b));
const to32 = (n: bigint): Uint8Array => hexToBytes(n.toString(16).padStart(64, "0"));

abstract class Slip10Node implements HdNode {
  private pub?: Uint8Array;
  constructor(
    readonly privateKey: Uint8Array,
    readonly chainCode: Uint8Array,
  ) {}
  protected abstract computePublicKey(): Uint8Array;
  get publicKey(): Uint8Array {
    return (this.pub ??= this.computePublicKey());
  }
  abstract derive(index: number): HdNode;
}

class Ed25519Node extends Slip10Node {
  protected computePublicKey(): Uint8Array {
    return ed25519.getPublicKey(this.privateKey);
  }
  derive(index: number): HdNode {
    if (index < HARDENED_OFFSET) {
      throw new Error(`SLIP-10 ed25519 supports hardened derivation only (index ${index})`);
    }
    const I = hmac(sha512, this.chainCode, concatBytes(new Uint8Array([0]), this.privateKey, ser32(index)));
    return new Ed25519Node(I.slice(0, 32), I.slice(32));
  }
}

class P256Node extends Slip10Node {
  protected computePublicKey(): Uint8Array {
    return p256.getPublicKey(this.privateKey, true);
  }
  derive(index: number): HdNode {
    const hardened = index >= HARDENED_OFFSET;
    let data = hardened
      ? concatBytes(new Uint8Array([0]), this.privateKey, ser32(index))
      : concatBytes(this.publicKey, ser32(index));
    const kpar = toBig(this.privateKey);
    for (;;) {
      const I = hmac(sha512, this.chainCode, data);
      const IL = toBig(I.subarray(0, 32));
      const IR = I.slice(32);
      const k = (IL + kpar) % P256_N;
      if (IL < P256_N && k !== 0n) return new P256Node(to32(k), IR);
      data = concatBytes(new Uint8Array([1]), IR, ser32(index));
    }
  }
}

/** Master node for `curve` from a BIP-39 seed (16..64 bytes). */
export function slip10Master(curve: Slip10Curve, seed: Uint8Array): HdNode {
  let I = hmac(sha512, MASTER_KEY[curve], seed);
  if (curve === "ed25519") return new Ed25519Node(I.slice(0, 32), I.slice(32));
  for (;;) {
    const IL = toBig(I.subarray(0, 32));
    if (IL !== 0n && IL < P256_N) return new P256Node(I.slice(0, 32), I.slice(32));
    I = hmac(sha512, MASTER_KEY[curve], I);
  }
}
