/**
 * Shamir secret sharing over GF(2^8) with the AES polynomial x^8+x^4+x^3+x+1 (0x11b), in the
 * share format QuorumOS uses for quorum keys (qos_crypto::shamir over vsss-rs `Gf256`): one share
 * is its x coordinate (1..255) as a byte, then one byte per secret byte. Tested against the
 * shares QuorumOS pins in its own test (`can_reconstruct_from_old_shares`).
 */
import { osRandom } from "../../core/random.js";

const EXP = new Uint8Array(510);
const LOG = new Uint8Array(256);
{
  // 3 generates the multiplicative group of GF(2^8) under 0x11b.
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x ^= (x << 1) ^ (x & 0x80 ? 0x11b : 0);
    x &= 0xff;
  }
  for (let i = 255; i < 510; i++) EXP[i] = EXP[i - 255]!;
}

const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!);
const div = (a: number, b: number): number => {
  if (b === 0) throw new Error("division by zero in GF(256)");
  return a === 0 ? 0 : EXP[LOG[a]! + 255 - LOG[b]!]!;
};

/**
 * Splits `secret` into `count` shares of which any `threshold` recombine it. As QuorumOS:
 * 2 <= threshold <= count <= 255. `random` supplies the polynomials' coefficients (tests pin it).
 */
export function splitSecret(secret: Uint8Array, count: number, threshold: number, random: (n: number) => Uint8Array = (n) => osRandom.bytes(n)): Uint8Array[] {
  if (!Number.isInteger(threshold) || !Number.isInteger(count) || threshold < 2 || threshold > count || count > 255)
    throw new RangeError(`Shamir sharing needs 2 <= threshold <= count <= 255, got ${threshold} of ${count}`);
  const shares = Array.from({ length: count }, (_, i) => {
    const s = new Uint8Array(secret.length + 1);
    s[0] = i + 1;
    return s;
  });
  for (let b = 0; b < secret.length; b++) {
    const coefficients = [secret[b]!, ...random(threshold - 1)];
    for (const share of shares) {
      const x = share[0]!;
      // Horner's rule, highest degree first.
      let y = 0;
      for (let c = coefficients.length - 1; c >= 0; c--) y = mul(y, x) ^ coefficients[c]!;
      share[b + 1] = y;
    }
  }
  return shares;
}

/** Recombines shares (at least the threshold of them, distinct x, same length) by Lagrange interpolation at 0. */
export function combineShares(shares: readonly Uint8Array[]): Uint8Array {
  if (shares.length < 2) throw new RangeError("at least two shares are needed");
  const length = shares[0]!.length;
  if (length < 2 || shares.some((s) => s.length !== length)) throw new RangeError("shares must have the same length, of at least two bytes");
  const xs = shares.map((s) => s[0]!);
  if (xs.includes(0) || new Set(xs).size !== xs.length) throw new RangeError("shares must have distinct, non-zero identifiers");
  const out = new Uint8Array(length - 1);
  for (let b = 1; b < length; b++) {
    let acc = 0;
    for (let i = 0; i < shares.length; i++) {
      // Lagrange basis at 0: prod_{j != i} x_j / (x_j - x_i); subtraction is xor.
      let basis = 1;
      for (let j = 0; j < shares.length; j++) if (j !== i) basis = mul(basis, div(xs[j]!, xs[j]! ^ xs[i]!));
      acc ^= mul(shares[i]![b]!, basis);
    }
    out[b - 1] = acc;
  }
  return out;
}
