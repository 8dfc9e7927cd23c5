/**
 * The auth-proxy surface: unstamped `POST /v1/<op>` on the coordinator's port, keyed by the
 * `X-Auth-Proxy-Config-ID` header. Order: config id (400 missing, 404 unknown, 403 disabled),
 * origin against the config's allowed origins (403 and no CORS allow header), body against
 * the contract, captcha (when the config enables it), then the endpoint. Responses are
 * contract-checked like the coordinator's. Its CORS (`proxyCors`, per configuration) is set by
 * the app-wide `corsFirst` (core/http/cors.ts) before anything answers.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";
import { proxy, proxySchemas, parseRequest } from "../../../contracts/index.js";
import { invalidArgument, notFound, permissionDenied } from "../../core/errors.js";
import { operationHandler, type Surface } from "../../core/http/pipeline.js";
import { requestInstant } from "../../core/http/request-facts.js";
import { quote } from "../../core/input-error.js";
import { checkRequestLimits } from "../../limits/request-limits.js";
import type { CorsPolicy } from "../../core/http/cors.js";
import type { Runtime } from "../../core/runtime.js";
import { allowedOrigin, type AuthProxySettings } from "./settings.js";
import type { ProxyContext } from "../../core/vocabulary/contexts.js";
import type { Registry } from "../../core/vocabulary/define.js";
import type { AuthProxyConfigRow } from "./repository.js";

declare module "../../core/vocabulary/contexts.js" {
  /** An auth-proxy request works with the configuration its header names, and that configuration's settings. */
  interface ProxyContext {
    config: AuthProxyConfigRow;
    settings: AuthProxySettings;
  }
}

export const CONFIG_ID_HEADER = "x-auth-proxy-config-id";
export const CAPTCHA_HEADER = "x-captcha-token";

/** What a request's configuration gives its context; admission adds the request's instant. */
type Configured = Omit<ProxyContext, "now">;

/** The enabled configuration named by the request's header (`configOf` keeps it for the request). */
function resolveConfig(rt: Runtime, req: { headers: IncomingHttpHeaders }): Configured {
  const raw = req.headers[CONFIG_ID_HEADER];
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!id) throw invalidArgument("missing X-Auth-Proxy-Config-ID header: the auth proxy needs the id of an auth proxy configuration", "X-Auth-Proxy-Config-ID");
  const config = rt.store.authProxyConfigs.byConfigId(id);
  const org = config && rt.store.organizations.get(config.orgId);
  if (!config || !org) throw notFound(`auth proxy config not found: ${quote(id)}`); // a header: a long one is cut
  if (!config.enabled) throw permissionDenied(`the auth proxy is disabled for auth proxy config ${id}`);
  const captcha = req.headers[CAPTCHA_HEADER];
  return { rt, config, org, settings: config.settings as AuthProxySettings, captchaToken: Array.isArray(captcha) ? captcha[0] : captcha };
}

/**
 * The configuration each request names, resolved once: its CORS (decided before anything
 * answers) and its admission both need it. Keyed by the request object, so it lives as long as
 * the request; a failure is not kept (admission resolves again and answers the error).
 */
const resolved = new WeakMap<object, Configured>();

function configOf(rt: Runtime, req: { headers: IncomingHttpHeaders }): Configured {
  let px = resolved.get(req);
  if (!px) resolved.set(req, (px = resolveConfig(rt, req)));
  return px;
}

/** The operation the auth proxy serves at a path (an emulated endpoint), if any. */
const servedAt = (endpoints: Registry["endpoints"], path: string) => {
  const op = proxy[path];
  return op && endpoints.has(op.name) ? op : undefined;
};

/** Whether a path is one the auth proxy serves (its CORS is `proxyCors`). */
export const proxyServes = (rt: Runtime, path: string): boolean => servedAt(rt.registry.endpoints, path) !== undefined;

/**
 * The auth proxy's CORS, per configuration. A preflight carries no config id: the origin some
 * enabled configuration allows. A request: the origin its configuration allows (an origin it
 * refuses gets none, and admission answers 403); when the configuration itself is what is
 * wrong (missing, unknown, disabled), the caller's origin, so that the browser reads that error.
 */
export function proxyCors(rt: Runtime): CorsPolicy {
  return {
    methods: "POST, OPTIONS",
    allowOrigin(req) {
      const origin = req.headers.origin;
      if (req.method === "OPTIONS") return rt.store.authProxyConfigs.enabled().map((c) => allowedOrigin(c.settings as AuthProxySettings, origin)).find((o) => o) ?? null;
      let px: Configured;
      try {
        px = configOf(rt, req);
      } catch {
        return origin ?? null;
      }
      return allowedOrigin(px.settings, origin);
    },
  };
}

/** The auth proxy's steps in the shared pipeline: a configuration id and an allowed origin admit the request. */
const proxySurface = (endpoints: Registry["endpoints"]): Surface<ProxyContext> => ({
  paths: /^\/v1\/[^/]+$/,
  operation: (path) => servedAt(endpoints, path),
  errorSchema: proxySchemas.rpcStatus,
  admit(rt, _op, req, res) {
    const origin = req.headers.origin;
    const px = configOf(rt, req);
    if (!allowedOrigin(px.settings, origin)) throw permissionDenied(`origin ${quote(origin ?? null)} is not allowed by auth proxy config ${px.config.configId}`);
    return { ...px, now: requestInstant(rt.clock, res) };
  },
  emptyBody: (op) => endpoints.get(op.name)!.emptyBody,
  run(_rt, op, px, json) {
    const endpoint = endpoints.get(op.name)!;
    const body = parseRequest(op.request, json) as Record<string, unknown>;
    checkRequestLimits(op.name, body, endpoint.arrayLimits);
    if (px.settings.captchaEnabled && endpoint.captcha && !px.captchaToken)
      throw permissionDenied("captcha is enabled for this auth proxy config: send the X-Captcha-Token header");
    return endpoint.run(px, body);
  },
});

export function proxyHandler(rt: Runtime): RequestHandler {
  return operationHandler(rt, proxySurface(rt.registry.endpoints));
}
