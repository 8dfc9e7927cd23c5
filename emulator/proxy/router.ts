/**
 * The auth-proxy surface: unstamped `POST /v1/<op>` on the coordinator's port, keyed by the
 * `X-Auth-Proxy-Config-ID` header. Order: config id (400 missing, 404 unknown, 403 disabled),
 * origin against the config's allowed origins (403 and no CORS allow header), body against
 * the contract, captcha (when the config enables it), then the endpoint. Responses are
 * contract-checked like the coordinator's. Mount before the app-wide CORS middleware.
 */
import { Router, type NextFunction, type Request, type Response } from "express";
import { proxy, proxySchemas, parseRequest } from "../../contracts/index.js";
import { GrpcCode, invalidArgument, notFound, permissionDenied, TurnkeyError } from "../errors.js";
import { bodyBytes, parseJsonObject, rawBody } from "../http/body.js";
import { ALLOWED_HEADERS } from "../http/cors.js";
import { sendRpcError } from "../http/errors.js";
import { conformingBody } from "../http/contract-check.js";
import type { Runtime } from "../runtime.js";
import { allowedOrigin, walletKitConfig, type AuthProxySettings } from "./settings.js";
import type { ProxyContext } from "./forward.js";
import { otpInit, otpLogin, otpVerify } from "./otp.js";
import { oauth2Authenticate, oauthLogin } from "./oauth.js";
import { getAccount } from "./account.js";
import { signup } from "./signup.js";

export const CONFIG_ID_HEADER = "x-auth-proxy-config-id";
export const CAPTCHA_HEADER = "x-captcha-token";
/** Cloudflare Turnstile's published always-passing test site key (captcha is not emulated). */
export const TURNSTILE_TEST_SITE_KEY = "1x00000000000000000000AA";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Endpoint = (px: ProxyContext, body: any) => unknown;

const ENDPOINTS: Record<string, Endpoint> = {
  wallet_kit_config: (px) => walletKitConfig(px.settings, px.org.id),
  wallet_kit_client_params: (px) => (px.settings.captchaEnabled ? { turnstileSiteKey: TURNSTILE_TEST_SITE_KEY } : {}),
  otp_init: (px, b) => otpInit(px, b, false),
  otp_init_v2: (px, b) => otpInit(px, b, true),
  otp_verify: (px, b) => otpVerify(px, b),
  otp_verify_v2: (px, b) => otpVerify(px, b),
  otp_login: (px, b) => otpLogin(px, b, false),
  otp_login_v2: (px, b) => otpLogin(px, b, true),
  oauth_login: (px, b) => oauthLogin(px, b),
  oauth2_authenticate: (px, b) => oauth2Authenticate(px, b),
  account: (px, b) => getAccount(px, b),
  signup: (px, b) => signup(px, b),
  signup_v2: (px, b) => signup(px, b),
};

const EMPTY_BODY_ALLOWED = new Set(["wallet_kit_config", "wallet_kit_client_params"]);
const CAPTCHA_CHECKED = new Set(["otp_init", "otp_init_v2", "signup", "signup_v2"]);

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

function sendProxyError(rt: Runtime, res: Response, err: unknown): void {
  if (rt.validateResponses && err instanceof TurnkeyError) conformingBody(true, proxySchemas.rpcStatus, "rpcStatus", "auth proxy error response", err.toJSON());
  sendRpcError(res, err);
}

export function proxyRouter(rt: Runtime): Router {
  const router = Router();
  router.all(/^\/v1\/[^/]+$/, rawBody, async (req: Request, res: Response, next: NextFunction) => {
    const op = proxy[req.path];
    if (!op) return next();
    const origin = req.headers.origin;
    if (req.method === "OPTIONS") {
      // A preflight carries no config id: allow what some enabled configuration allows.
      const ok = rt.store.authProxyConfigs.enabled().map((c) => allowedOrigin(c.settings as AuthProxySettings, origin)).find((o) => o);
      if (ok) setCors(res, ok);
      res.status(204).end();
      return;
    }
    try {
      if (req.method !== "POST") throw new TurnkeyError(GrpcCode.UNIMPLEMENTED, `Method Not Allowed: ${req.method} ${req.path} (use POST)`);
      let px: ProxyContext;
      try {
        px = resolveConfig(rt, req);
      } catch (err) {
        if (origin) setCors(res, origin);
        throw err;
      }
      const allowed = allowedOrigin(px.settings, origin);
      if (!allowed) throw permissionDenied(`origin ${origin} is not allowed by auth proxy config ${px.config.configId}`);
      setCors(res, allowed);
      const json = parseJsonObject(bodyBytes(req.body), EMPTY_BODY_ALLOWED.has(op.name));
      const body = parseRequest(op.request, json);
      if (px.settings.captchaEnabled && CAPTCHA_CHECKED.has(op.name) && !px.captchaToken)
        throw permissionDenied("captcha is enabled for this auth proxy config: send the X-Captcha-Token header");
      const payload = await ENDPOINTS[op.name]!(px, body);
      res.status(200).json(conformingBody(rt.validateResponses, op.response, op.responseName, req.path, payload));
    } catch (err) {
      sendProxyError(rt, res, err);
    }
  });
  return router;
}
