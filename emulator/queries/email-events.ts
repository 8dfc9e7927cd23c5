/**
 * list_email_events: the delivery events of the emails an organization sent to one address
 * (OTP codes, magic links, recovery and invitation mails, as the mailbox recorded them).
 * The emulator delivers every email, so each one has exactly one `Delivery` event; bounces
 * and complaints never happen offline. Newest first, paginated by event id.
 */
import { createHash } from "node:crypto";
import { invalidArgument } from "../errors.js";
import { checkEmail } from "../activities/lookups.js";
import { defineQuery } from "../operations/define.js";
import { pageLimit } from "./activities.js";

/** The address the emulator's emails come from (it sends none: they land in the mailbox). */
export const EMULATOR_MAIL_SENDER = "notifications@emulator.invalid";

/** A stable UUID-shaped id for the nth email of an organization. */
function eventId(orgId: string, seq: number): string {
  const h = createHash("sha256").update(`email-event:${orgId}:${seq}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const emailEventQueryOperations = [
  defineQuery("list_email_events", {
    run(ctx, b) {
      checkEmail(b.email, "email");
      const events = ctx.rt.store.mailbox
        .emailsTo(ctx.org.id, b.email)
        .reverse()
        .map((m) => {
          const at = new Date(m.createdAt).toISOString();
          const id = eventId(m.orgId, m.seq);
          return { id, organizationId: m.orgId, messageId: `${id}@emulator`, eventType: "Delivery", fromAddress: EMULATOR_MAIL_SENDER, toAddress: m.contact, timestamp: at, createdAt: at, details: {} };
        })
        .filter((e) => b.eventType === undefined || b.eventType === "" || e.eventType === b.eventType);
      const p = b.paginationOptions ?? {};
      const at = (id: string | undefined, field: string) => {
        if (!id) return undefined;
        const i = events.findIndex((e) => e.id === id);
        if (i < 0) throw invalidArgument(`unknown pagination cursor: ${id}`, field);
        return i;
      };
      const before = at(p.before, "paginationOptions.before");
      const after = at(p.after, "paginationOptions.after");
      const limit = pageLimit(p.limit);
      // Newest first: `before` an event are the newer ones, `after` it the older ones.
      const window = events.filter((_, i) => (after === undefined || i > after) && (before === undefined || i < before));
      return { emailEvents: before !== undefined && after === undefined ? window.slice(-limit) : window.slice(0, limit) };
    },
  }),
];
