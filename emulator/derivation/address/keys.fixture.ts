/** Test keys: accounts derived from two well-known mnemonics at the SDK default paths. */
import { mnemonicToSeedSync } from "@scure/bip39";
import { deriveKey } from "../keys/derive.js";
import type { Curve } from "../keys/curve.js";
import { curvesFor, defaultPathFor } from "./index.js";

export const ABANDON = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
export const JUNK = "test test test test test test test test test test test junk";
export const SEEDS = [mnemonicToSeedSync(ABANDON), mnemonicToSeedSync(JUNK)];

export interface TestKey {
  curve: Curve;
  path: string;
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

/** A handful of keys for `format` (both seeds, account indices 0..2) on `curve` (default: first supported). */
export function testKeys(format: string, curve: Curve = curvesFor(format)[0]!): TestKey[] {
  const out: TestKey[] = [];
  for (const seed of SEEDS) {
    for (let i = 0; i < 3; i++) {
      const path = defaultPathFor(format, i);
      out.push({ curve, path, ...deriveKey(seed, curve, path) });
    }
  }
  return out;
}
