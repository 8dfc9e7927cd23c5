/**
 * A cassette: one recorded session, as JSON Lines. The first line is its header (what it is,
 * where it was recorded from); each further line one exchange: the surface and path, the
 * request (the headers that matter, who stamped it, the body) and the answer (status, the
 * headers that matter, the body), and when the request arrived. Secrets are markers
 * (redact.ts); stamps keep their public key and scheme, never their signature.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";

export const CASSETTE_VERSION = 1;

export type Surface = "coordinator" | "proxy";

/** Who stamped a request: the key (and scheme) of an X-Stamp or X-Stamp-Attested, the credential of a passkey stamp. */
export type StampInfo = {
  header: "X-Stamp" | "X-Stamp-WebAuthn" | "X-Stamp-Attested";
  publicKey?: string;
  scheme?: string;
  credentialId?: string;
  /** An attested stamp's token (a marker). */
  attestation?: string;
};

export type Exchange = {
  seq: number;
  surface: Surface;
  path: string;
  /** `submit create_wallet`, `query whoami`, `proxy otp_init`. */
  operation: string;
  /** When the request arrived, ms since the epoch (the recorder's clock). */
  recordedAt: number;
  durationMs: number;
  request: {
    headers: Record<string, string>;
    stamp?: StampInfo;
    /** An `X-Session` header (a marker). */
    session?: string;
    body: unknown;
  };
  response: { status: number; headers: Record<string, string>; body: unknown };
};

export type CassetteHeader = {
  cassette: number;
  recordedAt: string;
  upstream: string;
  proxyUpstream?: string;
  recorder: string;
};

export type Cassette = { header: CassetteHeader; exchanges: Exchange[] };

/** Request headers kept (lower case); stamps and sessions are kept apart, without their secret parts. */
export const REQUEST_HEADERS = ["content-type", "origin", "x-auth-proxy-config-id", "x-client-version"];
/** Response headers kept. */
export const RESPONSE_HEADERS = ["content-type", "retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"];

/** The surface and operation of a service path, or undefined for any other path (not recorded). */
export function operationOf(path: string): { surface: Surface; operation: string } | undefined {
  const c = /^\/public\/v1\/(submit|query)\/([a-z0-9_]+)$/.exec(path);
  if (c) return { surface: "coordinator", operation: `${c[1]} ${c[2]}` };
  const p = /^\/v1\/([a-z0-9_]+)$/.exec(path);
  if (p) return { surface: "proxy", operation: `proxy ${p[1]}` };
  return undefined;
}

export class CassetteError extends Error {}

/** Reads a cassette; a line that is not an exchange fails naming its number. */
export function readCassette(file: string): Cassette {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CassetteError(`cannot read cassette ${file}: ${(e as Error).message}`);
  }
  return parseCassette(text, file);
}

export function parseCassette(text: string, source = "(cassette)"): Cassette {
  const lines = text.split("\n");
  let header: CassetteHeader | undefined;
  const exchanges: Exchange[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      throw new CassetteError(`${source}:${i + 1}: not JSON (${(e as Error).message})`);
    }
    const o = v as Record<string, unknown>;
    if (i === 0 && o && typeof o.cassette === "number") {
      if (o.cassette > CASSETTE_VERSION) throw new CassetteError(`${source}: cassette version ${o.cassette} is newer than this emulator reads (${CASSETTE_VERSION})`);
      header = o as unknown as CassetteHeader;
      return;
    }
    const bad = exchangeProblem(o);
    if (bad) throw new CassetteError(`${source}:${i + 1}: not an exchange: ${bad}`);
    exchanges.push(o as unknown as Exchange);
  });
  if (!header) throw new CassetteError(`${source}: no header line (a cassette starts with {"cassette": ${CASSETTE_VERSION}, ...})`);
  // Lines are written as answers arrive; requests replay in the order they arrived.
  exchanges.sort((a, b) => a.seq - b.seq);
  return { header, exchanges };
}

function exchangeProblem(o: Record<string, unknown> | null): string | undefined {
  if (!o || typeof o !== "object") return "expected an object";
  if (typeof o.seq !== "number") return "seq must be a number";
  if (o.surface !== "coordinator" && o.surface !== "proxy") return 'surface must be "coordinator" or "proxy"';
  if (typeof o.path !== "string" || !operationOf(o.path)) return "path must be a service path (/public/v1/submit|query/<op> or /v1/<op>)";
  if (typeof o.recordedAt !== "number") return "recordedAt must be a number";
  const req = o.request as Record<string, unknown> | undefined;
  const res = o.response as Record<string, unknown> | undefined;
  if (!req || typeof req !== "object" || !req.headers) return "request must hold headers and body";
  if (!res || typeof res !== "object" || typeof res.status !== "number") return "response must hold a status";
  return undefined;
}

/** Writes a cassette line by line as exchanges complete (each line appended at once, so a killed recorder leaves every finished exchange). */
export class CassetteWriter {
  count = 0;
  constructor(
    readonly file: string,
    header: CassetteHeader,
  ) {
    writeFileSync(file, JSON.stringify(header) + "\n", { mode: 0o600 });
  }

  write(x: Exchange): void {
    appendFileSync(this.file, JSON.stringify(x) + "\n");
    this.count++;
  }
}
