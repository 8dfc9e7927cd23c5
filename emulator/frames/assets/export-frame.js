// @ts-check
/**
 * The emulator's export frame: what export.turnkey.com is to the wallet kit, for bundles the
 * emulator signs. Speaks @turnkey/iframe-stamper's protocol (a MessageChannel handed over in
 * TURNKEY_INIT_MESSAGE_CHANNEL, then {type, requestId, value} requests on it): it makes an
 * embedded P-256 key, announces its public half (PUBLIC_KEY_READY), and opens the export bundle
 * the parent injects: the enclave signature checked against the emulator's signer key, the
 * organization checked, HPKE (RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256,
 * AES-256-GCM, info "turnkey_hpke", AAD = enc || receiver key) opened with WebCrypto only. The
 * secret is shown in this frame and never leaves it.
 *
 * Plain JS on WebCrypto so the same module runs in the browser and in Node's tests. The embedded
 * key lives as long as the frame (the kit opens one frame per export).
 */

import { serveStamperChannel } from "./stamper-channel.js";

const subtle = globalThis.crypto.subtle;
const enc = new TextEncoder();

/** @param {string} hex */
export function hexToBytes(hex) {
  if (hex.length % 2 !== 0 || /[^0-9a-fA-F]/.test(hex)) throw new Error("not a hex string");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {Uint8Array} bytes */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {Uint8Array[]} parts */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** @param {number} n */
const i2osp2 = (n) => new Uint8Array([(n >> 8) & 0xff, n & 0xff]);

/** A DER ECDSA signature as WebCrypto's r || s (32 bytes each). @param {Uint8Array} der */
export function derToRaw(der) {
  let at = 0;
  const expect = (/** @type {number} */ tag) => {
    if (der[at++] !== tag) throw new Error("bad DER signature");
  };
  const length = () => {
    let len = der[at++] ?? 0;
    if (len & 0x80) {
      const n = len & 0x7f;
      len = 0;
      for (let i = 0; i < n; i++) len = (len << 8) | (der[at++] ?? 0);
    }
    return len;
  };
  const integer = () => {
    expect(0x02);
    const len = length();
    let bytes = der.slice(at, at + len);
    at += len;
    while (bytes.length > 32 && bytes[0] === 0) bytes = bytes.slice(1);
    if (bytes.length > 32) throw new Error("bad DER signature");
    return concat(new Uint8Array(32 - bytes.length), bytes);
  };
  expect(0x30);
  length();
  return concat(integer(), integer());
}

/** @param {Uint8Array} key @param {Uint8Array} data */
async function hmac(key, data) {
  // HKDF's empty salt is HashLen zero bytes (RFC 5869), the same HMAC key as an empty one.
  const k = await subtle.importKey("raw", key.length ? key : new Uint8Array(32), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle.sign("HMAC", k, data));
}

const HPKE_V1 = enc.encode("HPKE-v1");
const KEM_SUITE = concat(enc.encode("KEM"), i2osp2(0x0010));
const HPKE_SUITE = concat(enc.encode("HPKE"), i2osp2(0x0010), i2osp2(0x0001), i2osp2(0x0002));

/** @param {Uint8Array} suite @param {Uint8Array} salt @param {string} label @param {Uint8Array} ikm */
const labeledExtract = (suite, salt, label, ikm) => hmac(salt, concat(HPKE_V1, suite, enc.encode(label), ikm));

/** One HKDF-Expand block is enough for every length here (<= 32). @param {Uint8Array} suite @param {Uint8Array} prk @param {string} label @param {Uint8Array} info @param {number} length */
async function labeledExpand(suite, prk, label, info, length) {
  const t1 = await hmac(prk, concat(i2osp2(length), HPKE_V1, suite, enc.encode(label), info, new Uint8Array([1])));
  return t1.slice(0, length);
}

/** mode_base key schedule for Turnkey's profile. @param {Uint8Array} dh @param {Uint8Array} encapped @param {Uint8Array} receiverPublic */
async function keySchedule(dh, encapped, receiverPublic) {
  const empty = new Uint8Array(0);
  const eaePrk = await labeledExtract(KEM_SUITE, empty, "eae_prk", dh);
  const shared = await labeledExpand(KEM_SUITE, eaePrk, "shared_secret", concat(encapped, receiverPublic), 32);
  const context = concat(
    new Uint8Array([0]),
    await labeledExtract(HPKE_SUITE, empty, "psk_id_hash", empty),
    await labeledExtract(HPKE_SUITE, empty, "info_hash", enc.encode("turnkey_hpke")),
  );
  const secret = await labeledExtract(HPKE_SUITE, shared, "secret", empty);
  return {
    key: await labeledExpand(HPKE_SUITE, secret, "key", context, 32),
    iv: await labeledExpand(HPKE_SUITE, secret, "base_nonce", context, 12),
    aad: concat(encapped, receiverPublic),
  };
}

/**
 * Opens Turnkey's HPKE profile.
 * @param {Uint8Array} encapped the sender's ephemeral public key (65 bytes, uncompressed)
 * @param {Uint8Array} ciphertext ciphertext || tag
 * @param {CryptoKey} receiverPrivate ECDH P-256 private key
 * @param {Uint8Array} receiverPublic its public key, uncompressed
 */
export async function hpkeOpen(encapped, ciphertext, receiverPrivate, receiverPublic) {
  const ephemeral = await subtle.importKey("raw", encapped, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const dh = new Uint8Array(await subtle.deriveBits({ name: "ECDH", public: ephemeral }, receiverPrivate, 256));
  const ks = await keySchedule(dh, encapped, receiverPublic);
  const key = await subtle.importKey("raw", ks.key, "AES-GCM", false, ["decrypt"]);
  return new Uint8Array(await subtle.decrypt({ name: "AES-GCM", iv: ks.iv, additionalData: ks.aad }, key, ciphertext));
}

/**
 * Seals to a receiver key in Turnkey's HPKE profile (the import frame's direction).
 * @param {Uint8Array} plaintext
 * @param {Uint8Array} receiverPublic uncompressed, exactly as the import bundle gave it
 * @returns {Promise<{ encapped: Uint8Array, ciphertext: Uint8Array }>}
 */
export async function hpkeSeal(plaintext, receiverPublic) {
  const ephemeral = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
  const encapped = new Uint8Array(await subtle.exportKey("raw", ephemeral.publicKey));
  const receiver = await subtle.importKey("raw", receiverPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const dh = new Uint8Array(await subtle.deriveBits({ name: "ECDH", public: receiver }, ephemeral.privateKey, 256));
  const ks = await keySchedule(dh, encapped, receiverPublic);
  const key = await subtle.importKey("raw", ks.key, "AES-GCM", false, ["encrypt"]);
  const ciphertext = new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv: ks.iv, additionalData: ks.aad }, key, plaintext));
  return { encapped, ciphertext };
}

/**
 * Checks an enclave-signed envelope (export and import bundles) and returns its signed data.
 * @param {string} bundle @param {string} signerPublicKey
 * @returns {Promise<Record<string, unknown>>}
 */
export async function openSignedEnvelope(bundle, signerPublicKey) {
  /** @type {{ data?: string, dataSignature?: string, enclaveQuorumPublic?: string }} */
  let envelope;
  try {
    envelope = JSON.parse(bundle);
  } catch {
    throw new Error("the bundle is not JSON");
  }
  if (typeof envelope.data !== "string" || typeof envelope.dataSignature !== "string" || typeof envelope.enclaveQuorumPublic !== "string")
    throw new Error("the bundle lacks data, dataSignature or enclaveQuorumPublic");
  if (envelope.enclaveQuorumPublic !== signerPublicKey)
    throw new Error(`the bundle is signed by ${envelope.enclaveQuorumPublic}, not by this emulator's signer ${signerPublicKey}`);
  const data = hexToBytes(envelope.data);
  const signer = await subtle.importKey("raw", hexToBytes(signerPublicKey), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const valid = await subtle.verify({ name: "ECDSA", hash: "SHA-256" }, signer, derToRaw(hexToBytes(envelope.dataSignature)), data);
  if (!valid) throw new Error("the bundle's enclave signature is invalid");
  return JSON.parse(new TextDecoder().decode(data));
}

/** @typedef {{ privateKey: CryptoKey, publicKey: Uint8Array }} EmbeddedKey */

/** @returns {Promise<EmbeddedKey>} */
export async function newEmbeddedKey() {
  const pair = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
  return { privateKey: pair.privateKey, publicKey: new Uint8Array(await subtle.exportKey("raw", pair.publicKey)) };
}

/**
 * Checks an export bundle's envelope and opens it: the plaintext bytes (a mnemonic's UTF-8, or a raw key).
 * @param {string} bundle the export bundle JSON
 * @param {{ key: EmbeddedKey, signerPublicKey: string, organizationId: string }} expected
 */
export async function openExportBundle(bundle, expected) {
  /** @type {{ version?: string }} */
  let envelope;
  try {
    envelope = JSON.parse(bundle);
  } catch {
    throw new Error("the export bundle is not JSON");
  }
  if (envelope.version !== "v1.0.0") throw new Error(`unsupported export bundle version: ${envelope.version}`);
  const signed = /** @type {{ organizationId?: string, encappedPublic?: string, ciphertext?: string }} */ (await openSignedEnvelope(bundle, expected.signerPublicKey));
  if (signed.organizationId !== expected.organizationId)
    throw new Error(`the export bundle is for organization ${signed.organizationId}, not ${expected.organizationId}`);
  if (typeof signed.encappedPublic !== "string" || typeof signed.ciphertext !== "string") throw new Error("the export bundle lacks encappedPublic or ciphertext");
  return hpkeOpen(hexToBytes(signed.encappedPublic), hexToBytes(signed.ciphertext), expected.key.privateKey, expected.key.publicKey);
}

/** How a key is shown: hex for HEXADECIMAL (the default); other formats are not emulated. @param {Uint8Array} key @param {string | undefined} format */
export function formatKey(key, format) {
  if (!format || format === "HEXADECIMAL") return bytesToHex(key);
  throw new Error(`key format ${format} is not supported by the emulator's export frame (HEXADECIMAL is)`);
}

/**
 * Wires the frame in a browser: waits for the parent's channel, then answers its requests.
 * @param {{ signerPublicKey: string, output: { textContent: string | null, style: { setProperty(name: string, value: string): void } } }} page
 */
export function runExportFrame(page) {
  /** @type {Promise<EmbeddedKey>} */
  let key = newEmbeddedKey();
  /** @param {any} data */
  const open = async (data) => openExportBundle(data.value, { key: await key, signerPublicKey: page.signerPublicKey, organizationId: data.organizationId });
  const publicKey = async () => bytesToHex((await key).publicKey);
  serveStamperChannel({
    name: "export",
    style: page.output.style,
    publicKey,
    handlers: {
      INJECT_WALLET_EXPORT_BUNDLE: async (data) => {
        page.output.textContent = new TextDecoder().decode(await open(data));
        return ["BUNDLE_INJECTED", true];
      },
      INJECT_KEY_EXPORT_BUNDLE: async (data) => {
        page.output.textContent = formatKey(await open(data), data.keyFormat);
        return ["BUNDLE_INJECTED", true];
      },
      GET_EMBEDDED_PUBLIC_KEY: async () => ["GET_EMBEDDED_PUBLIC_KEY", await publicKey()],
      INIT_EMBEDDED_KEY: async () => ["INIT_EMBEDDED_KEY", await publicKey()],
      RESET_EMBEDDED_KEY: () => {
        key = newEmbeddedKey();
        page.output.textContent = "";
        return ["RESET_EMBEDDED_KEY", true];
      },
    },
  });
}
