/**
 * Passkeys: reading a registration's attestation object (CBOR) for the credential public
 * key, and verifying an `X-Stamp-Webauthn` assertion over a request body.
 *
 * Only ES256 (COSE alg -7, P-256) credentials are emulated; an RS256 passkey is refused at
 * registration with a clear error. Attestation statements are recorded (their `fmt`) but
 * not chained to a vendor root: the emulator trusts the browser, as a dev relying party does.
 */
import { DOCUMENTED_ERRORS } from "../error-catalogue.js";
import { createHash, verify as nodeVerify } from "node:crypto";
import { createRequire } from "node:module";
import { documentedError, invalidArgument } from "../errors.js";
import { publicKeyObject } from "./public-keys.js";

const require = createRequire(import.meta.url);
let cbor: typeof import("cbor-x") | undefined;

/** CBOR is needed only when a passkey registers: the decoder is loaded then, not at start-up. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function decode(bytes: Uint8Array): any {
  cbor ??= require("cbor-x") as typeof import("cbor-x");
  return cbor.decode(bytes);
}

export type AttestedCredential = {
  credentialId: string; // base64url of the raw credential id
  publicKey: string; // compressed P-256 point, hex
  aaguid: string;
  attestationType: string;
  signCount: number;
};

const b64 = (s: string, field: string): Buffer => {
  if (!/^[A-Za-z0-9_\-+/=]*$/.test(s)) throw invalidArgument(`${field} must be base64url`, field);
  return Buffer.from(s, "base64url");
};

function compress(x: Uint8Array, y: Uint8Array): string {
  return Buffer.concat([Buffer.from([(y[y.length - 1]! & 1) === 1 ? 3 : 2]), Buffer.from(x)]).toString("hex");
}

function uuidFromBytes(b: Buffer): string {
  const h = b.toString("hex").padEnd(32, "0");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Parses a registration (attestation) and checks it against the expected challenge. */
export function readAttestation(
  a: { credentialId: string; clientDataJson: string; attestationObject: string },
  challenge: string,
  field: string,
): AttestedCredential {
  let clientData: { type?: string; challenge?: string };
  try {
    clientData = JSON.parse(b64(a.clientDataJson, `${field}.attestation.clientDataJson`).toString("utf8"));
  } catch {
    throw documentedError("INVALID_ATTESTATION", "clientDataJson is not base64url-encoded JSON", `${field}.attestation.clientDataJson`);
  }
  if (clientData.type !== "webauthn.create") throw documentedError("INVALID_ATTESTATION", `clientDataJson.type must be webauthn.create`, `${field}.attestation.clientDataJson`);
  const norm = (s: string) => s.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  if (norm(clientData.challenge ?? "") !== norm(challenge)) {
    throw documentedError("INVALID_ATTESTATION", "attestation challenge does not match the challenge parameter", `${field}.challenge`);
  }
  let att: { fmt?: string; authData?: Uint8Array };
  try {
    att = decode(b64(a.attestationObject, `${field}.attestation.attestationObject`));
  } catch {
    throw documentedError("INVALID_ATTESTATION", "attestationObject is not valid CBOR", `${field}.attestation.attestationObject`);
  }
  const authData = att?.authData ? Buffer.from(att.authData) : undefined;
  if (!authData) throw documentedError("MISSING_ATTESTATION_AUTH_DATA", "attestationObject carries no authData", `${field}.attestation.attestationObject`);
  if (authData.length < 37 + 18) throw documentedError("INVALID_ATTESTATION", "attestationObject has no attested credential data", `${field}.attestation.attestationObject`);
  const flags = authData[32]!;
  if (!(flags & 0x40)) throw documentedError("INVALID_ATTESTATION", "authenticator data lacks the attested-credential flag", `${field}.attestation.attestationObject`);
  const signCount = authData.readUInt32BE(33);
  const aaguid = uuidFromBytes(authData.subarray(37, 53));
  const idLen = authData.readUInt16BE(53);
  const rawId = authData.subarray(55, 55 + idLen);
  let cose: Map<number, unknown> | Record<string, unknown>;
  try {
    cose = decode(authData.subarray(55 + idLen));
  } catch {
    throw documentedError("INVALID_ATTESTATION", "credential public key is not valid COSE", `${field}.attestation.attestationObject`);
  }
  const get = (k: number) => (cose instanceof Map ? cose.get(k) : (cose as Record<string, unknown>)[String(k)]);
  if (get(3) !== -7 || get(1) !== 2 || get(-1) !== 1) {
    throw documentedError("INVALID_ATTESTATION", `only ES256 (P-256) passkeys are emulated; this credential uses COSE alg ${String(get(3))}`, `${field}.attestation.attestationObject`);
  }
  const x = get(-2) as Uint8Array;
  const y = get(-3) as Uint8Array;
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32) {
    throw documentedError("INVALID_ATTESTATION", "credential public key coordinates are malformed", `${field}.attestation.attestationObject`);
  }
  const publicKey = compress(x, y);
  if (!publicKeyObject("p256", publicKey)) throw documentedError("INVALID_ATTESTATION", "credential public key is not a P-256 point", `${field}.attestation.attestationObject`);
  const credentialId = rawId.toString("base64url");
  if (a.credentialId && a.credentialId.replace(/=+$/, "") !== credentialId) {
    throw documentedError("INVALID_ATTESTATION", "credentialId does not match the attested credential", `${field}.attestation.credentialId`);
  }
  return { credentialId, publicKey, aaguid, attestationType: att.fmt ?? "none", signCount };
}

export type WebAuthnStamp = { authenticatorData: string; clientDataJson: string; credentialId: string; signature: string };

export const WEBAUTHN_BAD_SIGNATURE = DOCUMENTED_ERRORS.WEBAUTHN_SIGNATURE_INVALID.message;

export function parseWebAuthnStamp(header: string): WebAuthnStamp {
  let s: Partial<WebAuthnStamp>;
  try {
    s = JSON.parse(header);
  } catch {
    throw documentedError("MALFORMED_ACTIVITY_STAMP");
  }
  for (const k of ["authenticatorData", "clientDataJson", "credentialId", "signature"] as const) {
    if (typeof s?.[k] !== "string") throw documentedError("MALFORMED_ACTIVITY_STAMP");
  }
  return s as WebAuthnStamp;
}

/** Standard assertion check: challenge = hex(sha256(body)) as ASCII, signature by the stored key. */
export function verifyWebAuthnStamp(stamp: WebAuthnStamp, body: Buffer, publicKeyHex: string): boolean {
  try {
    const clientDataRaw = Buffer.from(stamp.clientDataJson, "base64url");
    const clientData = JSON.parse(clientDataRaw.toString("utf8"));
    if (clientData.type !== "webauthn.get") return false;
    const expected = Buffer.from(createHash("sha256").update(body).digest("hex"), "utf8").toString("base64url");
    if (String(clientData.challenge).replace(/=+$/, "") !== expected) return false;
    const key = publicKeyObject("p256", publicKeyHex);
    if (!key) return false;
    const signed = Buffer.concat([Buffer.from(stamp.authenticatorData, "base64url"), createHash("sha256").update(clientDataRaw).digest()]);
    return nodeVerify("sha256", signed, key, Buffer.from(stamp.signature, "base64url"));
  } catch {
    return false;
  }
}
