/**
 * The auth-proxy surface: unstamped `POST /v1/<op>` on the coordinator's port, keyed by the
 * `X-Auth-Proxy-Config-ID` header. Order: config id (400 missing, 404 unknown, 403 disabled),
 * origin against the config's allowed origins (403 and no CORS allow header), body against
 * the contract, captcha (when the config enables it), then the endpoint. Responses are
 * contract-checked like the coordinator's. Mount before the app-wide CORS middleware.
 */
import type { Request, Response, Router } from "express";
import { proxy, proxySchemas, parseRequest } from "../../contracts/index.js";
import { invalidArgument, notFound, permissionDenied } from "../errors.js";
import { operationRouter, type Surface } from "../http/pipeline.js";
import { checkRequestLimits } from "../limits/request-limits.js";
import { ALLOWED_HEADERS } from "../http/cors.js";
import type { Runtime } from "../runtime.js";
import { allowedOrigin, type AuthProxySettings } from "../domain/auth-proxy-settings.js";
import type { ProxyContext } from "../operations/contexts.js";
import type { Registry } from "../operations/define.js";

export const CONFIG_ID_HEADER = "x-auth-proxy-config-id";
export const CAPTCHA_HEADER = "x-captcha-token";

function setCors(res: Response, origin: string): void {
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Allow-Methods", "POST, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
  res.setHeader("Access-Control-Max-Age", "600");
}

/** The enabled configuration named by the request's header. */
export function resolveConfig(rt: Runtime, req: Request): ProxyContext {
  const raw = req.headers[CONFIG_ID_HEADER];
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!id) throw invalidArgument("missing X-Auth-Proxy-Config-ID header: the auth proxy needs the id of an auth proxy configuration", "X-Auth-Proxy-Config-ID");
  const config = rt.store.authProxyConfigs.byConfigId(id);
  const org = config && rt.store.organizations.get(config.orgId);
  if (!config || !org) throw notFound(`auth proxy config not found: ${id}`);
  if (!config.enabled) throw permissionDenied(`the auth proxy is disabled for auth proxy config ${id}`);
  const captcha = req.headers[CAPTCHA_HEADER];
  return { rt, config, org, settings: config.settings as AuthProxySettings, captchaToken: Array.isArray(captcha) ? captcha[0] : captcha };
}

/** The auth proxy's steps in the shared pipeline: a configuration id and an allowed origin admit the request. */
const proxySurface = (endpoints: Registry["endpoints"]): Surface<ProxyContext> => ({
  paths: /^\/v1\/[^/]+$/,
  operation: (path) => {
    const op = proxy[path];
    return op && endpoints.has(op.name) ? op : undefined;
  },
  errorSchema: proxySchemas.rpcStatus,
  preflight(rt, req, res) {
    // A preflight carries no config id: allow what some enabled configuration allows.
    const ok = rt.store.authProxyConfigs.enabled().map((c) => allowedOrigin(c.settings as AuthProxySettings, req.headers.origin)).find((o) => o);
    if (ok) setCors(res, ok);
    res.status(204).end();
  },
  refused(rt, req, res) {
    // Let the browser read the refusal when its origin may call this configuration (or the
    // configuration itself is what is wrong); an origin the configuration refuses gets none.
    const origin = req.headers.origin;
    if (!origin) return;
    let px: ProxyContext;
    try {
      px = resolveConfig(rt, req);
    } catch {
      setCors(res, origin);
      return;
    }
    const allowed = allowedOrigin(px.settings, origin);
    if (allowed) setCors(res, allowed);
  },
  admit(rt, _op, req, res) {
    const origin = req.headers.origin;
    const px = resolveConfig(rt, req);
    const allowed = allowedOrigin(px.settings, origin);
    if (!allowed) throw permissionDenied(`origin ${origin} is not allowed by auth proxy config ${px.config.configId}`);
    setCors(res, allowed);
    return px;
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

/** Mount before the app-wide CORS middleware: the proxy answers its own CORS, per configuration. */
export function proxyRouter(rt: Runtime): Router {
  return operationRouter(rt, proxySurface(rt.registry.endpoints));
}
