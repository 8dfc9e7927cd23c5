// @ts-check
/**
 * The emulator's import frame: what import.turnkey.com is to the wallet kit. The parent injects
 * the import bundle of init_import_wallet / init_import_private_key (signed by this emulator's
 * signer; it names the organization, the user and the enclave's one-time target key); the user
 * types the mnemonic or key into this frame; the parent then asks for the encrypted bundle,
 * sealed here to the target key in Turnkey's HPKE profile (WebCrypto), so the secret never
 * reaches the parent page. Same iframe-stamper protocol and crypto as export-frame.js.
 */
import { bytesToHex, hexToBytes, hpkeSeal, openSignedEnvelope } from "./export-frame.js";
import { serveStamperChannel } from "./stamper-channel.js";

/**
 * Checks an import bundle against the expected signer, organization and user; returns its target key.
 * @param {string} bundle @param {{ signerPublicKey: string, organizationId: string, userId: string }} expected
 */
export async function readImportBundle(bundle, expected) {
  const signed = /** @type {{ organizationId?: string, userId?: string, targetPublic?: string }} */ (await openSignedEnvelope(bundle, expected.signerPublicKey));
  if (signed.organizationId !== expected.organizationId) throw new Error(`the import bundle is for organization ${signed.organizationId}, not ${expected.organizationId}`);
  if (signed.userId !== expected.userId) throw new Error(`the import bundle is for user ${signed.userId}, not ${expected.userId}`);
  if (typeof signed.targetPublic !== "string") throw new Error("the import bundle lacks targetPublic");
  return hexToBytes(signed.targetPublic);
}

/** The encrypted bundle import_wallet / import_private_key take. @param {Uint8Array} plaintext @param {Uint8Array} targetPublic */
export async function encryptToTarget(plaintext, targetPublic) {
  const { encapped, ciphertext } = await hpkeSeal(plaintext, targetPublic);
  return JSON.stringify({ encappedPublic: bytesToHex(encapped), ciphertext: bytesToHex(ciphertext) });
}

/** A mnemonic as typed: words separated by single spaces. @param {string} text */
export const normalizeMnemonic = (text) => text.trim().split(/\s+/).join(" ");

/** A private key as typed, in the given format (HEXADECIMAL only here). @param {string} text @param {string | undefined} format */
export function privateKeyBytes(text, format) {
  if (format && format !== "HEXADECIMAL") throw new Error(`key format ${format} is not supported by the emulator's import frame (HEXADECIMAL is)`);
  const hex = text.trim().replace(/^0x/, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error("enter the private key as 64 hex characters");
  return hexToBytes(hex);
}

/**
 * Wires the frame in a browser.
 * @param {{ signerPublicKey: string, input: { value: string, style: { setProperty(name: string, value: string): void } } }} page
 */
export function runImportFrame(page) {
  /** @type {Uint8Array | null} */
  let target = null;
  const injected = () => {
    if (!target) throw new Error("no import bundle injected");
    return target;
  };
  serveStamperChannel({
    name: "import",
    style: page.input.style,
    // The import frame holds no embedded key; the stamper still waits for this message.
    publicKey: () => "",
    handlers: {
      INJECT_IMPORT_BUNDLE: async (data) => {
        target = await readImportBundle(data.value, { signerPublicKey: page.signerPublicKey, organizationId: data.organizationId, userId: data.userId });
        return ["BUNDLE_INJECTED", true];
      },
      EXTRACT_WALLET_ENCRYPTED_BUNDLE: async () => {
        const to = injected();
        const mnemonic = normalizeMnemonic(page.input.value);
        if (!mnemonic) throw new Error("enter a mnemonic");
        return ["ENCRYPTED_BUNDLE_EXTRACTED", await encryptToTarget(new TextEncoder().encode(mnemonic), to)];
      },
      EXTRACT_KEY_ENCRYPTED_BUNDLE: async (data) => {
        const to = injected();
        return ["ENCRYPTED_BUNDLE_EXTRACTED", await encryptToTarget(privateKeyBytes(page.input.value, data.keyFormat), to)];
      },
    },
  });
}
