/**
 * The mailbox: every email and SMS the emulator would have sent (OTP codes, email-auth and
 * recovery bundles), readable at `GET /emulator/v1/mailbox?contact=...`, newest last.
 */
import { Router } from "express";
import type { Runtime } from "../../core/runtime.js";
import type { MailMessage } from "./repository.js";

export function renderMessage(m: MailMessage): Record<string, unknown> {
  return { contact: m.contact, channel: m.channel, subject: m.subject, body: m.body, ...m.extra, organizationId: m.orgId, createdAt: new Date(m.createdAt).toISOString() };
}

export function mailboxRouter(rt: Runtime): Router {
  const router = Router();
  router.get("/emulator/v1/mailbox", (req, res) => {
    // An unencoded "+" of a phone number arrives as a space.
    const raw = typeof req.query.contact === "string" && req.query.contact ? req.query.contact : undefined;
    const contact = raw && /^ \d/.test(raw) ? `+${raw.slice(1)}` : raw;
    res.json(rt.store.mailbox.list(contact).map(renderMessage));
  });
  return router;
}
