/**
 * GET /public/v1/discovery/webhooks/jwks: the public key receivers verify deliveries with
 * (no authentication, cacheable as the service's is).
 * GET /emulator/v1/webhooks/deliveries: the outbox as tests and the UI read it (emulator-only).
 */
import { Router } from "express";
import { invalidArgument } from "../../core/errors.js";
import type { Runtime } from "../../core/runtime.js";
import { handle } from "../../core/http/control-routes.js";
import { jwksOf, signingKeyOf } from "./signing-key.js";
import { writeHeld } from "../../core/store/held-writes.js";
import type { DeliveryRow, DeliveryStatus } from "./deliveries.js";

const STATUSES: DeliveryStatus[] = ["PENDING", "DELIVERED", "FAILED", "CANCELED"];
const FILTERS = ["status", "eventId", "endpointId", "organizationId", "limit"];

const iso = (ms: number) => new Date(ms).toISOString();

function view(d: DeliveryRow): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(d.body);
  } catch {
    payload = d.body;
  }
  return {
    deliveryId: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    organizationId: d.orgId,
    subjectOrganizationId: d.subjectOrgId,
    endpointId: d.endpointId,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt === null ? null : iso(d.nextAttemptAt),
    note: d.note,
    history: d.history.map((a) => ({ ...a, at: iso(a.at) })),
    payload,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  };
}

function queryString(q: Record<string, unknown>, k: string): string | undefined {
  const v = q[k];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !v) throw invalidArgument(`${k} must be given once, as a non-empty string`, k);
  return v;
}

export function webhookRouter(rt: Runtime): Router {
  const router = Router();
  router.get(
    "/public/v1/discovery/webhooks/jwks",
    handle((_req, res) => {
      res.set("cache-control", "public, max-age=86400, s-maxage=86400, stale-if-error=604800");
      res.json(jwksOf(signingKeyOf(rt)));
    }),
  );
  router.get(
    "/emulator/v1/webhooks/deliveries",
    handle((req, res) => {
      const q = req.query as Record<string, unknown>;
      const unknown = Object.keys(q).find((k) => !FILTERS.includes(k));
      if (unknown) throw invalidArgument(`unknown filter ${unknown}: expected ${FILTERS.join(", ")}`, unknown);
      const status = queryString(q, "status");
      if (status !== undefined && !STATUSES.includes(status as DeliveryStatus)) throw invalidArgument(`status must be one of ${STATUSES.join(", ")}`, "status");
      const limitText = queryString(q, "limit");
      const limit = limitText === undefined ? 1000 : Number(limitText);
      if (!/^\d+$/.test(limitText ?? "1") || limit < 1 || limit > 1000) throw invalidArgument("limit must be a whole number from 1 to 1000", "limit");
      writeHeld(rt.store.db); // an event's rows are listed from the moment its activity has been answered
      const deliveries = rt.store.webhookDeliveries.list({
        status,
        eventId: queryString(q, "eventId"),
        endpointId: queryString(q, "endpointId"),
        orgId: queryString(q, "organizationId"),
        limit,
      });
      res.json({ deliveries: deliveries.map(view) });
    }),
  );
  return router;
}
