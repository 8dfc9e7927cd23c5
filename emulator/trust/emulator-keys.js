// @ts-check
/**
 * The emulator's enclave stand-in public keys, computed locally (no network call) with the
 * derivation the emulator itself uses (emulator/auth/instance-keys.ts and
 * emulator/bundles/enclave-keys.ts): seed = SHA-256("turnkey-emulator/instance/" + fixture
 * organization id); each role's scalar = HKDF-SHA256(seed, "turnkey-emulator/enclave-keys/v1",
 * role, 48 bytes) reduced into [1, n-1]; the on-ramp credentials key's scalar =
 * HKDF-SHA256(seed, "turnkey-emulator/on-ramp/v1", "on-ramp", 48 bytes), given compressed (the
 * form @turnkey/crypto's encryptOnRampSecret takes). A test pins this copy to the emulator's.
 *
 * Which fixture: TURNKEY_EMULATOR_ORG_ID (the organization id seeding the instance) wins, then
 * EMULATOR_TRUST_FIXTURE (a fixture file path, or a name under the package's fixtures/), then
 * the package's default fixture.
 */
import { readFileSync, existsSync } from "node:fs";
import { resolve, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { p256 } from "@noble/curves/nist.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

const FIXTURES_DIR = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const SEED_SALT = utf8ToBytes("turnkey-emulator/enclave-keys/v1");

/**
 * @typedef {{ signer: string; tlsFetcher: string; notarizer: string; onRamp?: string }} EmulatorEnclaveKeys
 * Uncompressed (04‖X‖Y) lowercase hex, the form /emulator/v1/info publishes; `onRamp`
 * (its `onRampEncryptionPublicKey`) compressed. Without `onRamp` that key is left alone.
 */

/** @param {string} organizationId @returns {EmulatorEnclaveKeys} */
export function emulatorEnclaveKeys(organizationId) {
  const seed = sha256(utf8ToBytes(`turnkey-emulator/instance/${organizationId}`));
  /** @param {string} role */
  const publicHex = (role) => bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(hkdf(sha256, seed, SEED_SALT, utf8ToBytes(role), 48)), false));
  const onRampScalar = p256.utils.randomSecretKey(hkdf(sha256, seed, utf8ToBytes("turnkey-emulator/on-ramp/v1"), utf8ToBytes("on-ramp"), 48));
  return { signer: publicHex("signer"), tlsFetcher: publicHex("tlsFetcher"), notarizer: publicHex("notarizer"), onRamp: bytesToHex(p256.getPublicKey(onRampScalar, true)) };
}

/** A fixture given as a path (absolute, or relative to the working directory) or as a name in the package's fixtures/. */
export function fixturePath(/** @type {string} */ nameOrPath) {
  const direct = isAbsolute(nameOrPath) ? nameOrPath : resolve(process.cwd(), nameOrPath);
  if (existsSync(direct)) return direct;
  const named = resolve(FIXTURES_DIR, nameOrPath.endsWith(".json") ? nameOrPath : `${nameOrPath}.json`);
  if (existsSync(named)) return named;
  throw new Error(`turnkey-emulator/trust: fixture ${JSON.stringify(nameOrPath)} not found (tried ${direct} and ${named})`);
}

/** The organization id that seeds an emulator instance's keys for a fixture file. */
export function fixtureSeedOrganizationId(/** @type {string} */ file) {
  /** @type {any} */
  const fixture = JSON.parse(readFileSync(file, "utf8"));
  const id = fixture?.organization?.organizationId ?? fixture?.organizations?.[0]?.organizationId;
  if (typeof id !== "string" || !id) throw new Error(`turnkey-emulator/trust: ${file} has no organization.organizationId`);
  return id;
}

/**
 * The keys to trust, chosen from the environment.
 * @param {Record<string, string | undefined>} env
 * @returns {{ keys: EmulatorEnclaveKeys; organizationId: string; from: string }}
 */
export function trustedKeysFromEnv(env) {
  if (env.TURNKEY_EMULATOR_ORG_ID) return { keys: emulatorEnclaveKeys(env.TURNKEY_EMULATOR_ORG_ID), organizationId: env.TURNKEY_EMULATOR_ORG_ID, from: "TURNKEY_EMULATOR_ORG_ID" };
  const file = fixturePath(env.EMULATOR_TRUST_FIXTURE || "default");
  const organizationId = fixtureSeedOrganizationId(file);
  return { keys: emulatorEnclaveKeys(organizationId), organizationId, from: file };
}

/**
 * Whether the switch may act: never under NODE_ENV=production unless EMULATOR_TRUST_FORCE=1.
 * @param {Record<string, string | undefined>} env
 * @returns {string | null} the refusal message, or null when allowed
 */
export function refusalFor(env) {
  if (env.NODE_ENV === "production" && env.EMULATOR_TRUST_FORCE !== "1")
    return "turnkey-emulator/trust: NODE_ENV=production, so the production enclave keys stay trusted and nothing is substituted (set EMULATOR_TRUST_FORCE=1 to override)";
  return null;
}
