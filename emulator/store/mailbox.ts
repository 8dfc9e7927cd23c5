import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";

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

/** A stored message: the message and its sequence number (delivery order). */
export type MailRow = MailMessage & { seq: number };

const rows = rowMapper<MailRow>({ json: ["extra"] });

export class Mailbox {
  constructor(private readonly db: Db) {}

  deliver(m: MailMessage): void {
    insertRow(this.db, "mailbox", rows, m);
  }

  /** Emails an organization sent to one address (case-insensitive), oldest first, with their sequence numbers. */
  emailsTo(orgId: string, email: string): MailRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM mailbox WHERE org_id = ? AND channel = 'email' AND lower(contact) = lower(?) ORDER BY seq").all(orgId, email));
  }

  /** Messages, oldest first; for one contact (case-insensitive) or all. */
  list(contact?: string): MailMessage[] {
    const found = contact === undefined ? prep(this.db, "SELECT * FROM mailbox ORDER BY seq").all() : prep(this.db, "SELECT * FROM mailbox WHERE lower(contact) = lower(?) ORDER BY seq").all(contact);
    return rows.readAll(found).map(({ seq: _seq, ...m }) => m);
  }
}
