/**
 * The import frame's crypto (frames/assets/import-frame.js, WebCrypto only): it accepts an import
 * bundle only from this emulator's signer for the expected organization and user, and what it
 * seals to the bundle's target key opens with hpke-js (@hpke/core) and with the emulator's
 * import path. The page route serves it with the instance's signer key.
 */
import { CipherSuite, DhkemP256HkdfSha256, HkdfSha256, Aes256Gcm } from "@hpke/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptToTarget, normalizeMnemonic, privateKeyBytes, readImportBundle } from "../../frames/assets/import-frame.js";
import { bytesToHex } from "../../frames/assets/export-frame.js";
import { makeImportBundle, openEncryptedImportBundle, parseImportedWallet } from "../../bundles/import-bundle.js";
import { generateP256KeyPair } from "../../bundles/p256.js";
import { startEmulator, type RunningEmulator } from "../../index.js";

const MNEMONIC = "build stumble dish cruel author puzzle army twice original spread fatigue liberty";
const ORG = "a0654ba3-306b-48dd-ad57-34d06370a360";
const USER = "05b3f0f1-3330-4e3b-9908-8a71f9c76f40";

describe("import frame crypto", () => {
  const signerKey = generateP256KeyPair();
  const signer = bytesToHex(signerKey.publicKey);

  it("seals the typed mnemonic to the bundle's target key: hpke-js and the emulator both open it", async () => {
    const made = makeImportBundle({ organizationId: ORG, userId: USER, signerKey });
    const target = await readImportBundle(made.importBundle, { signerPublicKey: signer, organizationId: ORG, userId: USER });
    expect(bytesToHex(target)).toBe(made.targetPublicHex);
    const encrypted = await encryptToTarget(new TextEncoder().encode(normalizeMnemonic(`  ${MNEMONIC.replaceAll(" ", "\n ")} `)), target);

    expect(parseImportedWallet(openEncryptedImportBundle(encrypted, made.targetPrivateKey, made.targetPublicHex))).toBe(MNEMONIC);

    const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
    const { encappedPublic, ciphertext } = JSON.parse(encrypted) as { encappedPublic: string; ciphertext: string };
    const enc = Buffer.from(encappedPublic, "hex");
    const ctx = await suite.createRecipientContext({ recipientKey: await suite.kem.deserializePrivateKey(made.targetPrivateKey), enc, info: new TextEncoder().encode("turnkey_hpke") });
    const plain = await ctx.open(Buffer.from(ciphertext, "hex"), Buffer.concat([enc, target]));
    expect(new TextDecoder().decode(plain)).toBe(MNEMONIC);
  });

  it("refuses a bundle from another signer, for another organization or user", async () => {
    const made = makeImportBundle({ organizationId: ORG, userId: USER, signerKey });
    const other = bytesToHex(generateP256KeyPair().publicKey);
    await expect(readImportBundle(made.importBundle, { signerPublicKey: other, organizationId: ORG, userId: USER })).rejects.toThrow(/not by this emulator's signer/);
    await expect(readImportBundle(made.importBundle, { signerPublicKey: signer, organizationId: "org-x", userId: USER })).rejects.toThrow(/for organization/);
    await expect(readImportBundle(made.importBundle, { signerPublicKey: signer, organizationId: ORG, userId: "user-x" })).rejects.toThrow(/for user/);
  });

  it("reads a hex private key and refuses other formats", () => {
    expect(bytesToHex(privateKeyBytes(" 0x" + "ab".repeat(32) + "\n", "HEXADECIMAL"))).toBe("ab".repeat(32));
    expect(() => privateKeyBytes("abc", undefined)).toThrow(/64 hex characters/);
    expect(() => privateKeyBytes("ab".repeat(32), "SOLANA")).toThrow(/SOLANA is not supported/);
  });
});

describe("GET /emulator/frames/import", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(() => emu.stop());

  it("serves the page with this instance's signer key, and its module", async () => {
    const page = await fetch(`${emu.url}/emulator/frames/import`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<textarea id="plaintext"');
    expect(html).toContain(`signerPublicKey: "${emu.info.signerPublicKey}"`);
    expect((await fetch(`${emu.url}/emulator/frames/import-frame.js`)).status).toBe(200);
  });
});
