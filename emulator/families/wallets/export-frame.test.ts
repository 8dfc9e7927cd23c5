/**
 * The export frame's crypto (emulator/frames/assets/export-frame.js, WebCrypto only) opens
 * bundles sealed by an independent HPKE implementation (@hpke/core) and signed with node:crypto,
 * and bundles from the emulator's own export path; it refuses a foreign signer, a bad signature,
 * another organization and a key it does not hold. The page route writes the instance's signer key.
 */
import { createSign, generateKeyPairSync } from "node:crypto";
import { CipherSuite, DhkemP256HkdfSha256, HkdfSha256, Aes256Gcm } from "@hpke/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesToHex, newEmbeddedKey, openExportBundle, derToRaw, hexToBytes, formatKey } from "../../frames/assets/export-frame.js";
import { makeExportBundle } from "../../bundles/export-bundle.js";
import { generateP256KeyPair } from "../../bundles/p256.js";
import { startEmulator, type RunningEmulator } from "../../index.js";

const MNEMONIC = "enforce month ensure lady critic permit web fish wash desert certain child";
const ORG = "3aca377d-436b-4e94-9871-97ff49f01f98";

/** A signer key pair from node:crypto: uncompressed public hex and a DER-signing function. */
function nodeSigner() {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const publicHex = `04${Buffer.from(jwk.x!, "base64url").toString("hex")}${Buffer.from(jwk.y!, "base64url").toString("hex")}`;
  const sign = (data: Buffer) => createSign("SHA256").update(data).sign(privateKey).toString("hex");
  return { publicHex, sign };
}

/** An export bundle made without the emulator's code: hpke-js seals, node:crypto signs. */
async function independentBundle(plaintext: Uint8Array, receiverPublic: Uint8Array, organizationId: string, signer = nodeSigner()) {
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
  const ctx = await suite.createSenderContext({ recipientPublicKey: await suite.kem.deserializePublicKey(receiverPublic), info: new TextEncoder().encode("turnkey_hpke") });
  const enc = new Uint8Array(ctx.enc);
  const ciphertext = new Uint8Array(await ctx.seal(plaintext, Buffer.concat([enc, receiverPublic])));
  const data = Buffer.from(JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext), organizationId }));
  const bundle = JSON.stringify({ version: "v1.0.0", data: data.toString("hex"), dataSignature: signer.sign(data), enclaveQuorumPublic: signer.publicHex });
  return { bundle, signer };
}

describe("export frame crypto", () => {
  it("opens a bundle sealed by hpke-js and signed by node:crypto", async () => {
    const key = await newEmbeddedKey();
    expect(key.publicKey).toHaveLength(65);
    const { bundle, signer } = await independentBundle(new TextEncoder().encode(MNEMONIC), key.publicKey, ORG);
    const plain = await openExportBundle(bundle, { key, signerPublicKey: signer.publicHex, organizationId: ORG });
    expect(new TextDecoder().decode(plain)).toBe(MNEMONIC);
  });

  it("opens the emulator's own export bundle (a raw key shown as hex)", async () => {
    const key = await newEmbeddedKey();
    const signerKey = generateP256KeyPair();
    const raw = hexToBytes("01d1bea08c6eee985cfbed17f5f4b19c515bee17643d595265ba8fb8371c97c2");
    const bundle = makeExportBundle({ plaintext: raw, targetPublicKeyHex: bytesToHex(key.publicKey), organizationId: ORG, signerKey });
    const plain = await openExportBundle(bundle, { key, signerPublicKey: bytesToHex(signerKey.publicKey), organizationId: ORG });
    expect(formatKey(plain, "HEXADECIMAL")).toBe("01d1bea08c6eee985cfbed17f5f4b19c515bee17643d595265ba8fb8371c97c2");
    expect(() => formatKey(plain, "SOLANA")).toThrow(/SOLANA is not supported/);
  });

  it("refuses another signer, a bad signature, another organization and a bundle for another key", async () => {
    const key = await newEmbeddedKey();
    const { bundle, signer } = await independentBundle(new TextEncoder().encode(MNEMONIC), key.publicKey, ORG);
    const other = nodeSigner();
    await expect(openExportBundle(bundle, { key, signerPublicKey: other.publicHex, organizationId: ORG })).rejects.toThrow(/not by this emulator's signer/);
    await expect(openExportBundle(bundle, { key, signerPublicKey: signer.publicHex, organizationId: "another-org" })).rejects.toThrow(/for organization 3aca377d/);

    const envelope = JSON.parse(bundle);
    const forged = JSON.stringify({ ...envelope, dataSignature: other.sign(Buffer.from(envelope.data, "hex")) });
    await expect(openExportBundle(forged, { key, signerPublicKey: signer.publicHex, organizationId: ORG })).rejects.toThrow(/signature is invalid/);

    const elsewhere = await independentBundle(new TextEncoder().encode(MNEMONIC), (await newEmbeddedKey()).publicKey, ORG, signer);
    await expect(openExportBundle(elsewhere.bundle, { key, signerPublicKey: signer.publicHex, organizationId: ORG })).rejects.toThrow();
    await expect(openExportBundle("not json", { key, signerPublicKey: signer.publicHex, organizationId: ORG })).rejects.toThrow(/not JSON/);
  });

  it("reads DER signatures with short and padded integers", () => {
    // r = 0x00ff.. (33 bytes with sign padding), s = 0x01 (one byte)
    const r = Buffer.concat([Buffer.from([0]), Buffer.alloc(32, 0xff)]);
    const der = Buffer.concat([Buffer.from([0x30, 2 + r.length + 3, 0x02, r.length]), r, Buffer.from([0x02, 0x01, 0x01])]);
    const raw = derToRaw(der);
    expect(bytesToHex(raw)).toBe("ff".repeat(32) + "00".repeat(31) + "01");
  });
});

describe("GET /emulator/frames/export", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(() => emu.stop());

  it("serves the page with this instance's signer key, and its module", async () => {
    const page = await fetch(`${emu.url}/emulator/frames/export`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`signerPublicKey: "${emu.info.signerPublicKey}"`);
    const script = await fetch(`${emu.url}/emulator/frames/export-frame.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(await script.text()).toContain("export function runExportFrame");
  });
});
