import type { Db } from "./db.js";
import { prep } from "./statements.js";

/** A message the emulator would have sent by email or SMS. */
export type MailMessage = {
  contact: string;
  channel: "email" | "sms";
  subject: string;
  body: string;
  orgId: string;
  createdAt: number;
  /** Machine-readable extras: otpCode, otpId, credentialBundle, kind, ... */
  extra: Record<string, unknown>;
};

type Raw = { seq: number; org_id: string; contact: string; channel: string; subject: string; body: string; extra: string; created_at: number };

export class Mailbox {
  constructor(private readonly db: Db) {}

  deliver(m: MailMessage): void {
    prep(this.db, "INSERT INTO mailbox (org_id, contact, channel, subject, body, extra, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run(m.orgId, m.contact, m.channel, m.subject, m.body, JSON.stringify(m.extra), m.createdAt);
  }

  /** Emails an organization sent to one address (case-insensitive), oldest first, with their sequence numbers. */
  emailsTo(orgId: string, email: string): (MailMessage & { seq: number })[] {
    const rows = prep(this.db, "SELECT * FROM mailbox WHERE org_id = ? AND channel = 'email' AND lower(contact) = lower(?) ORDER BY seq").all(orgId, email) as Raw[];
    return rows.map((r) => ({ seq: r.seq, contact: r.contact, channel: "email", subject: r.subject, body: r.body, orgId: r.org_id, createdAt: r.created_at, extra: JSON.parse(r.extra) }));
  }

  /** Messages, oldest first; for one contact (case-insensitive) or all. */
  list(contact?: string): MailMessage[] {
    const rows = (
      contact === undefined
        ? prep(this.db, "SELECT * FROM mailbox ORDER BY seq").all()
        : prep(this.db, "SELECT * FROM mailbox WHERE lower(contact) = lower(?) ORDER BY seq").all(contact)
    ) as Raw[];
    return rows.map((r) => ({ contact: r.contact, channel: r.channel as MailMessage["channel"], subject: r.subject, body: r.body, orgId: r.org_id, createdAt: r.created_at, extra: JSON.parse(r.extra) }));
  }
}
