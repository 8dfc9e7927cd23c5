/**
 * The emulator's own pages and routes under /emulator/ (control API, UI, frames, the emulated
 * providers' pages) answer only the emulator's own origin, the way dev servers guard themselves
 * (Vite's `server.allowedHosts`, webpack-dev-server's `allowedHosts`):
 *
 * - Host: a loopback name (`localhost`, `*.localhost`), any IP address (DNS rebinding needs a
 *   name), the `--host` the server listens on, or a name allowed with `--allow-host`. Anything
 *   else is a rebinding page or a host nobody allowed: 403.
 * - Origin, when a browser sends one, must be the emulator's own (the Host it asked): a page of
 *   another origin cannot write (a form, a no-cors or `text/plain` POST), and no CORS header is
 *   ever given, so it cannot read either. Its preflight is refused.
 * - A state-changing request with a body names a type a browser cannot send cross-origin without
 *   a preflight (JSON; a state image as octet-stream): a `text/plain`, multipart, form or untyped
 *   body is refused whatever its origin. The forms taken are the on-ramp checkout page's own and
 *   the OIDC token endpoint's (OAuth's format), both behind the Origin check.
 *
 * Open like the service or like Anvil, with CORS for any origin: the local chains' JSON-RPC
 * (a dapp in the browser talks to it) and the OIDC issuer's discovery document and keys (public
 * keys, as Google serves them). The coordinator (/public/v1/...) and the auth proxy (/v1/...)
 * are not under /emulator/ and keep the service's CORS.
 */
import { isIP } from "node:net";
import type { Request, RequestHandler } from "express";
import { GrpcCode, TurnkeyError, turnkeyErrorDetail } from "../errors.js";
import { sendRpcError, TransportError } from "./errors.js";
import { cors } from "./cors.js";

export type LocalOriginOptions = {
  /** The interface the server listens on (`--host`): its name is always allowed. */
  host?: string;
  /** Host names allowed besides loopback names and IP addresses (`--allow-host`); `.example.test` allows its subdomains too. */
  allowHosts?: readonly string[];
};

const CONTROL_PREFIX = "/emulator/";

/** Paths under /emulator/ that serve anyone, as their real counterparts do. */
const OPEN_PATHS = [/^\/emulator\/v1\/chains\/[^/]+\/rpc\/?$/, /^\/emulator\/v1\/oidc\/(\.well-known\/openid-configuration|jwks)\/?$/];

/**
 * Bodies a browser sends cross-origin without a preflight (the CORS-safelisted types, or none):
 * refused on state-changing requests, so that every write from a page needs the preflight this
 * guard never grants.
 */
const SIMPLE_BODY_TYPES = new Set(["", "text/plain", "multipart/form-data", "application/x-www-form-urlencoded"]);

/** Routes whose callers post forms, as their real counterparts take them: the on-ramp checkout page posts to itself; an OAuth token endpoint takes a form. */
const FORM_PATHS = [/^\/emulator\/v1\/onramp\/checkout\/[^/]+\/?$/, /^\/emulator\/v1\/oidc\/token\/?$/];

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** True for every path this guard answers for (its own origin, or open CORS). */
export function isEmulatorPath(path: string): boolean {
  return path.startsWith(CONTROL_PREFIX);
}

/** True for the paths this guard keeps to the emulator's own origin. */
export function isLocalOnlyPath(path: string): boolean {
  return isEmulatorPath(path) && !OPEN_PATHS.some((p) => p.test(path));
}

/** True for paths under /emulator/ that any origin may call (CORS for all). */
function isOpenPath(path: string): boolean {
  return isEmulatorPath(path) && OPEN_PATHS.some((p) => p.test(path));
}

/** The host name of a Host header value (`name:port`, `[v6]:port`), lower-cased; undefined when it is not one. */
export function hostName(hostHeader: string): string | undefined {
  const h = hostHeader.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(h) ?? /^([^:[\]/\s@]+)(?::\d{1,5})?$/.exec(h);
  return m?.[1];
}

/** Whether a Host header's name is one the emulator answers its own pages on. */
export function hostAllowed(name: string, options: LocalOriginOptions): boolean {
  if (isIP(name)) return true;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const listen = options.host?.toLowerCase().replace(/^\[|\]$/g, "");
  if (listen && name === listen) return true;
  return (options.allowHosts ?? []).some((allowed) => {
    const a = allowed.trim().toLowerCase();
    return a.startsWith(".") ? name === a.slice(1) || name.endsWith(a) : name === a;
  });
}

const refused = (message: string) => new TurnkeyError(GrpcCode.PERMISSION_DENIED, message, [turnkeyErrorDetail("REQUEST_NOT_AUTHORIZED")]);

/** Why a request to a local-only path is refused, or undefined when it may go on. */
export function localOriginRefusal(req: Request, options: LocalOriginOptions): TurnkeyError | undefined {
  const host = req.headers.host;
  if (host !== undefined) {
    const name = hostName(host);
    if (!name || !hostAllowed(name, options)) {
      return refused(
        `host not allowed: ${JSON.stringify(host.slice(0, 200))}. The emulator's control API, UI and frames answer only loopback names, IP addresses, ` +
          `the --host it listens on and names allowed with --allow-host (startEmulator({ allowHosts }))`,
      );
    }
  }
  const origin = req.headers.origin;
  if (origin !== undefined && (host === undefined || originHost(origin) !== host.trim().toLowerCase())) {
    return refused(`cross-origin request refused: the emulator's control API, UI and frames answer only their own origin, not ${JSON.stringify(origin.slice(0, 200))}`);
  }
  if (STATE_CHANGING.has(req.method) && hasBody(req)) {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    const form = type === "application/x-www-form-urlencoded" && FORM_PATHS.some((p) => p.test(req.path));
    if (SIMPLE_BODY_TYPES.has(type) && !form) {
      return new TransportError(
        GrpcCode.INVALID_ARGUMENT,
        `unsupported Content-Type ${JSON.stringify(type.slice(0, 100) || "(none)")}: the control API takes application/json (a state image application/octet-stream)`,
        415,
      );
    }
  }
  return undefined;
}

/** `host[:port]` of an Origin header (either scheme: a TLS proxy may stand in front), lower-cased; undefined for `null` or junk. */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

function hasBody(req: Request): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && length !== "0";
}

const openCors = cors();

/** Guards /emulator/ (see the header); answers CORS for the open paths; leaves every other path alone. */
export function localOrigin(options: LocalOriginOptions): RequestHandler {
  return (req, res, next) => {
    if (isOpenPath(req.path)) return openCors(req, res, next);
    if (!isLocalOnlyPath(req.path)) return next();
    const refusal = localOriginRefusal(req, options);
    if (refusal) return sendRpcError(res, refusal);
    // A preflight from the emulator's own origin never happens (same-origin requests need none).
    if (req.method === "OPTIONS") return sendRpcError(res, refused("cross-origin request refused: the emulator's control API answers no preflight"));
    next();
  };
}
