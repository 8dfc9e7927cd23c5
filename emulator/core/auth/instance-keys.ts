/**
 * The keys one emulator instance holds in place of Turnkey's enclave quorum keys (signer,
 * TLS fetcher, notarizer) and of an OIDC provider's signing key. Deterministic per fixture:
 * derived from the fixture organization id, so tests and apps can pin the public halves.
 */
import { createHash } from "node:crypto";
import { bytesToHex } from "@noble/hashes/utils.js";
import { derivedP256KeyPair, enclaveKeysFromSeed, enclavePublicKeysHex, type EnclaveKeys, type P256KeyPair } from "../../bundles/index.js";

export type InstanceKeys = {
  enclave: EnclaveKeys;
  /** Signs the id_tokens of the built-in OIDC issuer. */
  oidcIssuer: P256KeyPair;
  /** Stands in for Turnkey's on-ramp credentials encryption key (encryptOnRampSecret encrypts to it). */
  onRamp: P256KeyPair;
};

export function instanceKeysFor(seedText: string): InstanceKeys {
  const seed = new Uint8Array(createHash("sha256").update(`turnkey-emulator/instance/${seedText}`).digest());
  return {
    enclave: enclaveKeysFromSeed(seed),
    oidcIssuer: derivedP256KeyPair(seed, "turnkey-emulator/oidc-issuer/v1", "oidc"),
    onRamp: derivedP256KeyPair(seed, "turnkey-emulator/on-ramp/v1", "on-ramp"),
  };
}

/** What /emulator/v1/info publishes: uncompressed lowercase hex, as the SDK overrides compare them. */
export function instancePublicKeys(keys: InstanceKeys): { signerPublicKey: string; tlsFetcherPublicKey: string; notarizerPublicKey: string } {
  const hex = enclavePublicKeysHex(keys.enclave);
  return { signerPublicKey: hex.signer, tlsFetcherPublicKey: hex.tlsFetcher, notarizerPublicKey: hex.notarizer };
}

export const publicKeyHex = (k: P256KeyPair): string => bytesToHex(k.publicKey);
