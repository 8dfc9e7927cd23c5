/**
 * The emulator's stand-ins for Turnkey's enclave quorum keys. SDK callers pass the public halves
 * as `dangerouslyOverride…PublicKey` (uncompressed lowercase hex, compared as exact strings).
 *  - signer: export and import bundles
 *  - tlsFetcher: OTP encryption-target bundles and OTP verification tokens
 *  - notarizer: session JWTs
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { derivedP256KeyPair, generateP256KeyPair, type P256KeyPair } from "./p256.js";
import type { RandomBytes } from "../core/random.js";

export type EnclaveKeys = {
  signer: P256KeyPair;
  tlsFetcher: P256KeyPair;
  notarizer: P256KeyPair;
};

export type EnclavePublicKeysHex = { signer: string; tlsFetcher: string; notarizer: string };

const ROLES = ["signer", "tlsFetcher", "notarizer"] as const;
const SEED_SALT = "turnkey-emulator/enclave-keys/v1";

export function generateEnclaveKeys(random?: RandomBytes): EnclaveKeys {
  return { signer: generateP256KeyPair(random), tlsFetcher: generateP256KeyPair(random), notarizer: generateP256KeyPair(random) };
}

/**
 * Deterministic keys from a fixture seed (at least 16 bytes): each role's scalar is
 * HKDF-SHA256(seed, salt, info = role) → 48 bytes reduced into [1, n-1].
 */
export function enclaveKeysFromSeed(seed: Uint8Array): EnclaveKeys {
  if (seed.length < 16) throw new InputError("enclave key seed must be at least 16 bytes", "seed");
  const derive = (role: string) => derivedP256KeyPair(seed, SEED_SALT, role);
  const [signer, tlsFetcher, notarizer] = ROLES.map(derive) as [P256KeyPair, P256KeyPair, P256KeyPair];
  return { signer, tlsFetcher, notarizer };
}

/** Public keys as uncompressed (04‖X‖Y) lowercase hex: the exact strings SDK overrides compare against. */
export function enclavePublicKeysHex(keys: EnclaveKeys): EnclavePublicKeysHex {
  return {
    signer: bytesToHex(keys.signer.publicKey),
    tlsFetcher: bytesToHex(keys.tlsFetcher.publicKey),
    notarizer: bytesToHex(keys.notarizer.publicKey),
  };
}
