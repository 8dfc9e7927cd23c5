/**
 * The emulated OAuth2 provider (X, Discord) behind oauth2_authenticate:
 * `POST /emulator/v1/oauth2/authorize {provider, clientId, redirectUri, codeChallenge,
 * codeChallengeMethod?: "S256", subject, username?}` plays the user's consent and returns
 * the authorization code (and the redirect URL the provider would send the browser to).
 */
import { Router } from "express";
import { invalidArgument } from "../../core/errors.js";
import { sendRpcError } from "../../core/http/errors.js";
import { objectBody } from "../../core/http/body.js";
import { OAUTH2_SUBJECT_PREFIX } from "./oauth2-providers.js";
import type { Runtime } from "../../core/runtime.js";

export const OAUTH2_CODE_TTL_MS = 10 * 60 * 1000;

export function oauth2ProviderRouter(rt: Runtime): Router {
  const router = Router();
  router.post("/emulator/v1/oauth2/authorize", objectBody(), (req, res) => {
    try {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const str = (k: string) => {
        if (typeof b[k] !== "string" || !b[k]) throw invalidArgument(`${k} must be a non-empty string`, k);
        return b[k] as string;
      };
      const provider = str("provider");
      if (!OAUTH2_SUBJECT_PREFIX[provider]) throw invalidArgument(`provider must be one of ${Object.keys(OAUTH2_SUBJECT_PREFIX).join(", ")}`, "provider");
      if (b.codeChallengeMethod !== undefined && b.codeChallengeMethod !== "S256") throw invalidArgument("only the S256 code challenge method is supported", "codeChallengeMethod");
      const redirectUri = str("redirectUri");
      if (!URL.canParse(redirectUri)) throw invalidArgument("redirectUri must be an absolute URL", "redirectUri");
      const code = Buffer.from(rt.random.bytes(24)).toString("base64url");
      rt.store.oauth2.insertCode({
        code,
        provider,
        clientId: str("clientId"),
        redirectUri,
        codeChallenge: str("codeChallenge"),
        subject: str("subject"),
        username: typeof b.username === "string" ? b.username : null,
        expiresAt: rt.clock.now() + OAUTH2_CODE_TTL_MS,
        usedAt: null,
      });
      const url = new URL(redirectUri);
      url.searchParams.set("code", code);
      if (typeof b.state === "string") url.searchParams.set("state", b.state);
      res.json({ code, redirectUrl: url.toString() });
    } catch (err) {
      sendRpcError(res, err);
    }
  });
  return router;
}
