export type EmbeddedKey = { privateKey: CryptoKey; publicKey: Uint8Array };
export function hexToBytes(hex: string): Uint8Array;
export function bytesToHex(bytes: Uint8Array): string;
export function derToRaw(der: Uint8Array): Uint8Array;
export function hpkeOpen(encapped: Uint8Array, ciphertext: Uint8Array, receiverPrivate: CryptoKey, receiverPublic: Uint8Array): Promise<Uint8Array>;
export function newEmbeddedKey(): Promise<EmbeddedKey>;
export function openExportBundle(bundle: string, expected: { key: EmbeddedKey; signerPublicKey: string; organizationId: string }): Promise<Uint8Array>;
export function formatKey(key: Uint8Array, format: string | undefined): string;
export function runExportFrame(page: { signerPublicKey: string; output: { textContent: string | null; style: { setProperty(name: string, value: string): void } } }): void;
