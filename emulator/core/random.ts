/**
 * Where an instance draws every random value it makes (ids, mnemonics, keys, OTP codes, the
 * enclave's ephemeral keys, ...): `rt.random`. Without a seed it is the operating system's
 * generator (node:crypto), as before seeds existed. With one (`--seed TEXT`,
 * `startEmulator({ seed })`) it is a ChaCha20 key stream (RFC 8439, OpenSSL's through
 * node:crypto) keyed by SHA-256 of the seed text with a zero nonce, so the same requests in the
 * same order get the same values, run after run; `restart` starts the stream over (a reset).
 *
 * Not drawn from here, on purpose: the sealing key and IVs of secrets at rest (store/seal.ts:
 * a seed printed in a CI log must not open a database file) and the id of an internal error
 * (http/errors.ts: it names one failure in the log, and must not repeat across runs).
 */
import { createCipheriv, createHash, randomBytes, randomUUID, type Cipher } from "node:crypto";

export type Random = {
  /** The seed text, when the values are seeded. */
  readonly seed: string | undefined;
  /** `n` random bytes. */
  bytes(n: number): Uint8Array;
  /** A v4 UUID (RFC 9562), as the service's resource ids are. */
  uuid(): string;
  /** A whole number in [0, max), uniformly (rejection sampling), for 1 <= max <= 2^32. */
  int(max: number): number;
  /** Starts the values over: from `seed` when given (or the current one), so that what follows repeats. */
  restart(seed?: string): void;
  /** An independent source for one purpose (`label`): seeded from this seed and the label, or the system's generator when this one is not seeded. */
  derive(label: string): Random;
};

/** 16-byte IV of node's "chacha20": the 32-bit block counter (little endian), then the 96-bit nonce. */
const ZERO_IV = Buffer.alloc(16);

/** The ChaCha20 key stream of SHA-256(seed) (nonce 0, counter 0), one call after another. */
function keyStream(seed: string): Cipher {
  const key = createHash("sha256").update(seed, "utf8").digest();
  return createCipheriv("chacha20", key, ZERO_IV);
}

export function createRandom(seed?: string): Random {
  let current = seed;
  let stream = current === undefined ? undefined : keyStream(current);
  const bytes = (n: number): Uint8Array => {
    const out = stream ? stream.update(Buffer.alloc(n)) : randomBytes(n);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  };
  return {
    get seed() {
      return current;
    },
    bytes,
    uuid() {
      // Unseeded: node's own v4 UUIDs (drawn from a batch of system randomness, not a call per id).
      if (!stream) return randomUUID();
      const b = bytes(16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = Buffer.from(b).toString("hex");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    int(max) {
      if (!Number.isInteger(max) || max < 1 || max > 2 ** 32) throw new RangeError(`int(max): max must be a whole number from 1 to 2^32, got ${max}`);
      // The largest multiple of max below 2^32: values at or above it would favour the low results.
      const limit = 2 ** 32 - (2 ** 32 % max);
      for (;;) {
        const b = bytes(4);
        const v = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
        if (v < limit) return v % max;
      }
    },
    restart(seed) {
      if (seed !== undefined) current = seed;
      stream = current === undefined ? undefined : keyStream(current);
    },
    derive(label) {
      return createRandom(current === undefined ? undefined : `${current}/${label}`);
    },
  };
}

/** What a primitive that draws needs of a source: its bytes. */
export type RandomBytes = Pick<Random, "bytes">;

/** The operating system's generator: what primitives draw from when no instance's source is handed to them (tests, tools). */
export const osRandom: RandomBytes = { bytes: (n) => new Uint8Array(randomBytes(n)) };
