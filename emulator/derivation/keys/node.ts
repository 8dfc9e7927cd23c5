/** One node of a hierarchical-deterministic key tree, whatever the scheme behind it. */
export interface HdNode {
  /** 32-byte private scalar (ed25519: the 32-byte seed of the key). */
  readonly privateKey: Uint8Array;
  /** Compressed SEC1 (33 bytes) for secp256k1 / P-256; raw 32 bytes for ed25519. */
  readonly publicKey: Uint8Array;
  readonly chainCode: Uint8Array;
  /** Child at `index` (>= 0x80000000 means hardened). */
  derive(index: number): HdNode;
}
