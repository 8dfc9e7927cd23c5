/**
 * SLIP-0010 derivation for secp256k1 (where it is BIP-32), ed25519 and NIST P-256 (nist256p1),
 * over HMAC-SHA512 from OpenSSL (node:crypto: native from the first call, where a pure-JS hash
 * runs cold at start-up); public keys come from emulator/curves (libsecp256k1 and OpenSSL),
 * computed only when read.
 *
 * - ed25519 supports hardened children only (SLIP-10); `derive` throws on a
 *   non-hardened index. What the service does with such paths is decided in derive.ts.
 * - P-256 supports both; an out-of-range intermediate is retried with
 *   0x01 || IR || ser32(i) as SLIP-10 prescribes (and the master with HMAC(key, I)).
 * - secp256k1 follows BIP-32 exactly: an out-of-range intermediate (probability < 2^-127) makes
 *   that child invalid and derive throws, as BIP-32 prescribes ("proceed with the next index").
 */
import { createHmac } from "node:crypto";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { ed25519PublicKey } from "../../curves/ed25519.js";
import { p256PublicKey } from "../../curves/p256.js";
import { secp256k1PublicKey } from "../../curves/secp256k1.js";
import { HARDENED_OFFSET } from "./path.js";
import type { HdNode } from "./node.js";

export type Slip10Curve = "secp256k1" | "ed25519" | "nist256p1";

const MASTER_KEY: Record<Slip10Curve, Uint8Array> = {
  secp256k1: utf8ToBytes("Bitcoin seed"),
  ed25519: utf8ToBytes("ed25519 seed"),
  nist256p1: utf8ToBytes("Nist256p1 seed"),
};

const hmacSha512 = (key: Uint8Array, data: Uint8Array): Uint8Array => new Uint8Array(createHmac("sha512", key).update(data).digest());

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
    return ed25519PublicKey(this.privateKey);
  }
  derive(index: number): HdNode {
    if (index < HARDENED_OFFSET) {
      throw new Error(`SLIP-10 ed25519 supports hardened derivation only (index ${index})`);
    }
    const I = hmacSha512(this.chainCode, concatBytes(new Uint8Array([0]), this.privateKey, ser32(index)));
    return new Ed25519Node(I.slice(0, 32), I.slice(32));
  }
}

/** What differs between the two short-Weierstrass curves: the group order, the public key, and what an out-of-range child means. */
interface WeierstrassCurve {
  readonly n: bigint;
  publicKey(privateKey: Uint8Array): Uint8Array;
  /** SLIP-10 retries with 0x01 || IR || ser32(i); BIP-32 declares the child invalid. */
  readonly retryInvalidChild: boolean;
}

const SECP256K1: WeierstrassCurve = {
  n: 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
  publicKey: secp256k1PublicKey,
  retryInvalidChild: false,
};

const NIST256P1: WeierstrassCurve = {
  n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  publicKey: p256PublicKey,
  retryInvalidChild: true,
};

class WeierstrassNode extends Slip10Node {
  constructor(
    private readonly curve: WeierstrassCurve,
    privateKey: Uint8Array,
    chainCode: Uint8Array,
  ) {
    super(privateKey, chainCode);
  }
  protected computePublicKey(): Uint8Array {
    return this.curve.publicKey(this.privateKey);
  }
  derive(index: number): HdNode {
    const { n } = this.curve;
    let data =
      index >= HARDENED_OFFSET
        ? concatBytes(new Uint8Array([0]), this.privateKey, ser32(index))
        : concatBytes(this.publicKey, ser32(index));
    const kpar = toBig(this.privateKey);
    for (;;) {
      const I = hmacSha512(this.chainCode, data);
      const IL = toBig(I.subarray(0, 32));
      const IR = I.slice(32);
      const k = (IL + kpar) % n;
      if (IL < n && k !== 0n) return new WeierstrassNode(this.curve, to32(k), IR);
      if (!this.curve.retryInvalidChild) throw new Error(`BIP-32 child ${index} is invalid (IL >= n or k = 0): use the next index`);
      data = concatBytes(new Uint8Array([1]), IR, ser32(index));
    }
  }
}

/** Master node for `curve` from a BIP-39 seed (16..64 bytes). */
export function slip10Master(curve: Slip10Curve, seed: Uint8Array): HdNode {
  let I = hmacSha512(MASTER_KEY[curve], seed);
  if (curve === "ed25519") return new Ed25519Node(I.slice(0, 32), I.slice(32));
  const params = curve === "secp256k1" ? SECP256K1 : NIST256P1;
  for (;;) {
    const IL = toBig(I.subarray(0, 32));
    if (IL !== 0n && IL < params.n) return new WeierstrassNode(params, I.slice(0, 32), I.slice(32));
    if (!params.retryInvalidChild) throw new Error("BIP-32 master key is invalid (IL = 0 or IL >= n): use another seed");
    I = hmacSha512(MASTER_KEY[curve], I);
  }
}
