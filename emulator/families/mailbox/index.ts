/** What the mailbox family offers the other families: delivery of what the service would send (codes, magic links, invitations). */
import type { Runtime } from "../../core/runtime.js";
import type { MailMessage } from "./repository.js";

export type { MailMessage };

/** Puts a message in the instance's mailbox (sealed at rest); the emulator sends nothing. */
export function deliverMail(rt: Pick<Runtime, "store">, message: MailMessage): void {
  rt.store.mailbox.deliver(message);
}
