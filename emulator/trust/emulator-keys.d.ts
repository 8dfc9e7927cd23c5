/** Uncompressed (04‖X‖Y) lowercase hex, the form /emulator/v1/info publishes; `onRamp` (its onRampEncryptionPublicKey) compressed, and left alone when absent. */
export type EmulatorEnclaveKeys = { signer: string; tlsFetcher: string; notarizer: string; onRamp?: string };
export function emulatorEnclaveKeys(organizationId: string): EmulatorEnclaveKeys;
export function fixturePath(nameOrPath: string): string;
export function fixtureSeedOrganizationId(file: string): string;
export function trustedKeysFromEnv(env: Record<string, string | undefined>): { keys: EmulatorEnclaveKeys; organizationId: string; from: string };
export function refusalFor(env: Record<string, string | undefined>): string | null;
