/**
 * The mailbox: what the emulator would have sent by email or SMS. The contents (body and
 * extras) hold OTP codes, magic links and credential bundles, so they are sealed at rest
 * (core/store/seal.ts) like the OTP rows and opened when read; who and when stay in the clear,
 * for the lookups by contact. A row an older emulator stored in clear is told apart by its
 * extras (a JSON object, where a sealed value never starts with "{") and sealed on open.
 */
import type { Db } from "../../core/store/db.js";
import { inTransaction } from "../../core/store/db.js";
import type { Sealer } from "../../core/store/seal.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    mailbox: Mailbox;
  }
}

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

/** As stored: `body` sealed, `extra` its JSON sealed (or both in the clear, from an older emulator). */
type StoredRow = Omit<MailRow, "extra"> & { extra: string };

const rows = rowMapper<StoredRow>();

/** Rows stored in the clear: their extras are a JSON object. */
const CLEAR = "substr(extra, 1, 1) = '{'";

export class Mailbox {
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
  ) {}

  deliver(m: MailMessage): void {
    insertRow(this.db, "mailbox", rows, this.sealed(m));
  }

  /** Emails an organization sent to one address (case-insensitive), oldest first, with their sequence numbers. */
  emailsTo(orgId: string, email: string): MailRow[] {
    return this.opened(prep(this.db, "SELECT * FROM mailbox WHERE org_id = ? AND channel = 'email' AND lower(contact) = lower(?) ORDER BY seq").all(orgId, email));
  }

  /** Messages, oldest first; for one contact (case-insensitive) or all. */
  list(contact?: string): MailMessage[] {
    const found = contact === undefined ? prep(this.db, "SELECT * FROM mailbox ORDER BY seq").all() : prep(this.db, "SELECT * FROM mailbox WHERE lower(contact) = lower(?) ORDER BY seq").all(contact);
    return this.opened(found).map(({ seq: _seq, ...m }) => m);
  }

  /** Seals the rows an older emulator stored in clear (with secure_delete on, so the clear cells are zeroed); returns how many. */
  sealClearRows(): number {
    const clear = this.opened(prep(this.db, `SELECT * FROM mailbox WHERE ${CLEAR}`).all());
    if (!clear.length) return 0;
    const secureDelete = this.db.pragma("secure_delete", { simple: true }) as number;
    this.db.pragma("secure_delete = ON");
    try {
      inTransaction(this.db, () => {
        for (const m of clear) {
          const { body, extra } = this.sealed(m);
          prep(this.db, "UPDATE mailbox SET body = ?, extra = ? WHERE seq = ?").run(body, extra, m.seq);
        }
      });
    } finally {
      this.db.pragma(`secure_delete = ${secureDelete}`);
    }
    return clear.length;
  }

  private sealed<M extends MailMessage>(m: M): Omit<M, "extra"> & { extra: string } {
    return { ...m, body: this.sealer.seal(m.body), extra: this.sealer.seal(JSON.stringify(m.extra)) };
  }

  private opened(raws: unknown[]): MailRow[] {
    return rows.readAll(raws).map((r) =>
      r.extra.startsWith("{")
        ? { ...r, extra: JSON.parse(r.extra) as Record<string, unknown> }
        : { ...r, body: this.sealer.openText(r.body), extra: JSON.parse(this.sealer.openText(r.extra)) as Record<string, unknown> },
    );
  }
}
