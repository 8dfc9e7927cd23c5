/**
 * What never reaches a cassette: every secret a recorded exchange carries (OTP codes, session
 * and verification JWTs, id tokens, credential, export and import bundles, encrypted secrets,
 * OAuth codes, private keys, mnemonics) is replaced by a marker of its kind and length,
 * `<redacted otpCode len=6 #3>`. The number links the places one secret appears (the
 * verification token an answer gave and the login request that sends it back) without
 * saying anything about it: it counts distinct secrets in the order the recorder met them,
 * and the values it counts stay in the recorder's memory.
 *
 * A secret is found by the field that holds it (SECRET_FIELDS), by its look (a JWT, a BIP-39
 * mnemonic), and once known, wherever it appears again as a whole word of another string (an
 * error message that quotes it).
 */
import { wordlist } from "@scure/bip39/wordlists/english.js";

/** Fields whose string values are secrets, by the kind their marker names. */
export const SECRET_FIELDS: Readonly<Record<string, string>> = {
  otpCode: "otpCode",
  encryptedOtpBundle: "otpBundle",
  credentialBundle: "credentialBundle",
  exportBundle: "exportBundle",
  encryptedBundle: "encryptedBundle",
  secretPayload: "encryptedSecret",
  secretPayloads: "encryptedSecret",
  encryptedClientSecret: "encryptedSecret",
  encryptedPrivateApiKey: "encryptedSecret",
  encryptedSecretApiKey: "encryptedSecret",
  pivotContainerEncryptedPullSecret: "encryptedSecret",
  session: "sessionJwt",
  verificationToken: "verificationToken",
  oidcToken: "idToken",
  publicKeyAttestation: "attestation",
  authCode: "oauthCode",
  codeVerifier: "oauthVerifier",
  privateKey: "privateKey",
  apiPrivateKey: "privateKey",
  mnemonic: "mnemonic",
};

const MARKER = /^<redacted ([A-Za-z]+) len=(\d+) #(\d+)>$/;
const JWT = /^eyJ[\w-]*\.eyJ[\w-]*\.[\w-]*$/;
const WORDS = new Set(wordlist);

export type Marker = { kind: string; length: number; ref: number };

/** The marker a string is, or undefined. */
export function parseMarker(s: string): Marker | undefined {
  const m = MARKER.exec(s);
  return m ? { kind: m[1]!, length: Number(m[2]), ref: Number(m[3]) } : undefined;
}

export const isMarker = (s: unknown): s is string => typeof s === "string" && MARKER.test(s);

/** A BIP-39 mnemonic: 12 to 24 words of the English list. */
export function looksLikeMnemonic(s: string): boolean {
  const words = s.trim().split(/\s+/);
  return words.length >= 12 && words.length <= 24 && words.length % 3 === 0 && words.every((w) => WORDS.has(w));
}

/** The kind of secret a string is by its look alone, or undefined. */
export function secretKindOf(s: string): string | undefined {
  if (JWT.test(s)) return "jwt";
  if (looksLikeMnemonic(s)) return "mnemonic";
  return undefined;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Replaces secrets by markers; one per recording (the numbering is the recording's). */
export class Redactor {
  private readonly refs = new Map<string, string>();

  /** The marker of `value` as a secret of `kind` (the same marker every time it is met). */
  marker(kind: string, value: string): string {
    let m = this.refs.get(value);
    if (!m) {
      m = `<redacted ${kind} len=${value.length} #${this.refs.size + 1}>`;
      this.refs.set(value, m);
    }
    return m;
  }

  /** How many distinct secrets it has met. */
  get count(): number {
    return this.refs.size;
  }

  /** A JSON value with its secrets replaced (a copy; the value given is not changed). */
  json(value: unknown): unknown {
    this.collect(value, undefined);
    return this.scrub(this.replaceFields(value, undefined));
  }

  /** A string with every known secret that appears in it as a whole word replaced. */
  text(s: string): string {
    const whole = this.refs.get(s);
    if (whole) return whole;
    if (MARKER.test(s)) return s;
    let out = s;
    for (const [secret, marker] of this.refs) {
      if (secret.length < 6 || !out.includes(secret)) continue;
      out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escape(secret)}(?![A-Za-z0-9])`, "g"), marker);
    }
    return out;
  }

  /** Learns the secrets of a value (by field and by look) before anything is replaced, so that a secret met in an answer is known in the same pass. */
  private collect(value: unknown, key: string | undefined): void {
    if (typeof value === "string") {
      const kind = (key && SECRET_FIELDS[key]) ?? secretKindOf(value);
      if (kind && value && !isMarker(value)) this.marker(kind, value);
    } else if (Array.isArray(value)) {
      for (const v of value) this.collect(v, key);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) this.collect(v, k);
    }
  }

  private replaceFields(value: unknown, key: string | undefined): unknown {
    if (typeof value === "string") {
      const kind = (key && SECRET_FIELDS[key]) ?? secretKindOf(value);
      return kind && value && !isMarker(value) ? this.marker(kind, value) : value;
    }
    if (Array.isArray(value)) return value.map((v) => this.replaceFields(v, key));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.replaceFields(v, k)]));
    return value;
  }

  private scrub(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.scrub(v));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrub(v)]));
    return value;
  }
}
