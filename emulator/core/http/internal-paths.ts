/**
 * The service's internal maintenance paths under /tkhq/api/v1/ that the wider API document lists
 * and @turnkey/http's client can call: answered 501 with why, never 404 (the drift guard in
 * test/sdk-drift.test.ts keeps every path the client knows routed).
 */
import { Router } from "express";
import { unimplemented } from "../errors.js";
import { sendRpcError } from "./errors.js";

export const INTERNAL_PATHS: Readonly<Record<string, string>> = {
  "/tkhq/api/v1/refresh_feature_flags":
    "it flushes the service's in-memory cache of feature flags; the emulator keeps none (an organization's features are read from its state on every request), so there is nothing to refresh",
  "/tkhq/api/v1/test_rate_limits":
    "it sets a rate limit on one endpoint inside Turnkey's own servers for their load tests; the emulator's per-organization limit is `emulator start --rate-limit`",
};

export function internalPathsRouter(): Router {
  const router = Router();
  for (const [path, why] of Object.entries(INTERNAL_PATHS)) {
    router.post(path, (_req, res) => sendRpcError(res, unimplemented(`${path.split("/").pop()} is an internal Turnkey endpoint, routed but not emulated: ${why}`)));
  }
  return router;
}
