/**
 * The keys one emulator instance holds in place of Turnkey's enclave quorum keys (signer,
 * TLS fetcher, notarizer) and of an OIDC provider's signing key. Deterministic per fixture:
 * derived from the fixture organization id, so tests and apps can pin the public halves.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { p256 } from "@noble/curves/nist.js";
import { enclaveKeysFromSeed, enclavePublicKeysHex, p256KeyPairFromPrivate, type EnclaveKeys, type P256KeyPair } from "../bundles/index.js";

export type InstanceKeys = {
  enclave: EnclaveKeys;
  /** Signs the id_tokens of the built-in OIDC issuer. */
  oidcIssuer: P256KeyPair;
  /** Stands in for Turnkey's on-ramp credentials encryption key (encryptOnRampSecret encrypts to it). */
  onRamp: P256KeyPair;
};

export function instanceKeysFor(seedText: string): InstanceKeys {
  const seed = sha256(utf8ToBytes(`turnkey-emulator/instance/${seedText}`));
  const oidcScalar = p256.utils.randomSecretKey(hkdf(sha256, seed, utf8ToBytes("turnkey-emulator/oidc-issuer/v1"), utf8ToBytes("oidc"), 48));
  const onRampScalar = p256.utils.randomSecretKey(hkdf(sha256, seed, utf8ToBytes("turnkey-emulator/on-ramp/v1"), utf8ToBytes("on-ramp"), 48));
  return { enclave: enclaveKeysFromSeed(seed), oidcIssuer: p256KeyPairFromPrivate(oidcScalar), onRamp: p256KeyPairFromPrivate(onRampScalar) };
}

/** What /emulator/v1/info publishes: uncompressed lowercase hex, as the SDK overrides compare them. */
export function instancePublicKeys(keys: InstanceKeys): { signerPublicKey: string; tlsFetcherPublicKey: string; notarizerPublicKey: string } {
  const hex = enclavePublicKeysHex(keys.enclave);
  return { signerPublicKey: hex.signer, tlsFetcherPublicKey: hex.tlsFetcher, notarizerPublicKey: hex.notarizer };
}

export const publicKeyHex = (k: P256KeyPair): string => bytesToHex(k.publicKey);
