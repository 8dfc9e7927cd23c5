export function readImportBundle(bundle: string, expected: { signerPublicKey: string; organizationId: string; userId: string }): Promise<Uint8Array>;
export function encryptToTarget(plaintext: Uint8Array, targetPublic: Uint8Array): Promise<string>;
export function normalizeMnemonic(text: string): string;
export function privateKeyBytes(text: string, format: string | undefined): Uint8Array;
export function runImportFrame(page: { signerPublicKey: string; input: { value: string; style: { setProperty(name: string, value: string): void } } }): void;
