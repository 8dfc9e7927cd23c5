/**
 * list_email_events: the delivery events of the emails an organization sent to one address
 * (OTP codes, magic links, recovery and invitation mails, as the mailbox recorded them).
 * The emulator delivers every email, so each one has exactly one `Delivery` event; bounces
 * and complaints never happen offline. Newest first, paginated by event id.
 */
import { createHash } from "node:crypto";
import { checkEmail } from "../../core/vocabulary/lookups.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import { pageOf } from "../../core/vocabulary/pagination.js";

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
      return { emailEvents: pageOf(events, (e) => e.id, b.paginationOptions) };
    },
  }),
];
