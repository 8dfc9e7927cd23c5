/**
 * The recording proxy (`emulator record`): an app points its SDK at it instead of the live
 * base URL. Each request goes on unchanged (the same bytes, so stamps stay valid, and every
 * header but the hop-by-hop ones) to the coordinator, or to the auth proxy for `/v1/...` paths
 * when one is given, and its answer comes back unchanged. Each POST to a service path is
 * written to the cassette with its secrets replaced by markers (redact.ts); other requests
 * (CORS preflights, discovery documents) pass through unrecorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CASSETTE_VERSION, CassetteWriter, operationOf, REQUEST_HEADERS, RESPONSE_HEADERS, type Exchange, type StampInfo } from "./cassette.js";
import { Redactor } from "./redact.js";

export type RecorderOptions = {
  /** The coordinator's base URL (https://api.turnkey.com). */
  upstream: string;
  /** The auth proxy's base URL (https://authproxy.turnkey.com); default: the upstream serves /v1/... too. */
  proxyUpstream?: string;
  out: string;
  port?: number;
  host?: string;
  /** Names the recorder in the cassette's header. */
  recorder?: string;
  /** The clock exchanges are timed by (default the host's: the live service's time). */
  now?: () => number;
  /** Called after each exchange is written, with the count so far. */
  onExchange?: (x: Exchange, count: number) => void;
};

export type RunningRecorder = { url: string; count(): number; stop(): Promise<void> };

/** Headers a proxy does not pass on (RFC 9110 §7.6.1), and those fetch sets itself. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "host", "content-length", "accept-encoding"]);
/** Answer headers not passed back: fetch has already decoded the body and counts it anew. */
const ANSWER_DROPPED = new Set(["connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length"]);

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export async function startRecorder(o: RecorderOptions): Promise<RunningRecorder> {
  const upstream = trimSlash(o.upstream);
  const proxyUpstream = o.proxyUpstream ? trimSlash(o.proxyUpstream) : undefined;
  const redactor = new Redactor();
  const cassette = new CassetteWriter(o.out, { cassette: CASSETTE_VERSION, recordedAt: new Date().toISOString(), upstream, ...(proxyUpstream ? { proxyUpstream } : {}), recorder: o.recorder ?? "turnkey-emulator" });
  let seq = 0;
  const now = o.now ?? Date.now;

  const server: Server = createServer((req, res) => {
    void relay(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 14, message: `recording proxy: upstream unreachable: ${(err as Error).message}`, details: [] }));
    });
  });

  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const n = ++seq;
    const recordedAt = now();
    const body = await readAll(req);
    const path = new URL(req.url ?? "/", "http://recorder").pathname;
    const base = proxyUpstream && path.startsWith("/v1/") ? proxyUpstream : upstream;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || HOP_BY_HOP.has(k)) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const method = req.method ?? "GET";
    const answer = await fetch(base + (req.url ?? "/"), { method, headers, body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body), redirect: "manual" });
    const answerBody = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    answer.headers.forEach((v, k) => {
      if (!ANSWER_DROPPED.has(k) && k !== "set-cookie") out[k] = v;
    });
    const cookies = answer.headers.getSetCookie();
    if (cookies.length) out["set-cookie"] = cookies;
    res.writeHead(answer.status, out);
    res.end(answerBody);

    const op = operationOf(path);
    if (method !== "POST" || !op) return;
    const x: Exchange = {
      seq: n,
      surface: op.surface,
      path,
      operation: op.operation,
      recordedAt,
      durationMs: now() - recordedAt,
      request: { headers: kept(req.headers, REQUEST_HEADERS), ...stampAndSession(req, redactor), body: redactor.json(parsed(body)) },
      response: { status: answer.status, headers: kept(headerObject(answer.headers), RESPONSE_HEADERS), body: redactor.json(parsed(answerBody)) },
    };
    cassette.write(x);
    o.onExchange?.(x, cassette.count);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    count: () => cassette.count,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** A body as JSON when it is JSON, else as text (an empty body as null). */
function parsed(b: Buffer): unknown {
  const text = b.toString("utf8");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headerObject(h: Headers): Record<string, string> {
  const o: Record<string, string> = {};
  h.forEach((v, k) => (o[k] = v));
  return o;
}

function kept(headers: Record<string, string | string[] | undefined>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = headers[n];
    if (v !== undefined) out[n] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** Who stamped the request (key and scheme, never the signature) and its X-Session (a marker). */
function stampAndSession(req: IncomingMessage, redactor: Redactor): { stamp?: StampInfo; session?: string } {
  const out: { stamp?: StampInfo; session?: string } = {};
  const one = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const decoded = (v: string): Record<string, unknown> => {
    for (const text of [v.trim(), Buffer.from(v.trim(), "base64url").toString("utf8")]) {
      try {
        const j = JSON.parse(text) as unknown;
        if (j && typeof j === "object") return j as Record<string, unknown>;
      } catch {
        /* try the other form */
      }
    }
    return {};
  };
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const stamp = one("x-stamp");
  const webauthn = one("x-stamp-webauthn");
  const attested = one("x-stamp-attested");
  if (stamp) {
    const s = decoded(stamp);
    out.stamp = { header: "X-Stamp", publicKey: str(s.publicKey), scheme: str(s.scheme) };
  } else if (attested) {
    const s = decoded(attested);
    const token = str(s.publicKeyAttestation);
    out.stamp = { header: "X-Stamp-Attested", publicKey: str(s.publicKey), scheme: str(s.scheme), ...(token ? { attestation: redactor.marker("attestation", token) } : {}) };
  } else if (webauthn) {
    out.stamp = { header: "X-Stamp-WebAuthn", credentialId: str(decoded(webauthn).credentialId) };
  }
  const session = one("x-session");
  if (session) out.session = redactor.marker("sessionJwt", session);
  return out;
}
