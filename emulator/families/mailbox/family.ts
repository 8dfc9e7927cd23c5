/** The mailbox family: where the emulator delivers the emails and texts the service would send (OTP codes, magic links, recovery, invitations), list_email_events and the mailbox's control routes. */
import { defineFamily } from "../../core/family.js";
import { Mailbox } from "./repository.js";
import { mailboxRouter } from "./routes.js";
import { emailEventQueryOperations } from "./queries.js";

export const mailboxFamily = defineFamily({
  name: "mailbox",
  operations: emailEventQueryOperations,
  repositories(db, sealer) {
    const mailbox = new Mailbox(db, sealer);
    // Mail an older emulator kept in clear is sealed now; a file's WAL is emptied into it, so the old pages go too.
    if (mailbox.sealClearRows() && !db.memory) db.pragma("wal_checkpoint(TRUNCATE)");
    return { mailbox };
  },
  routes: {
    control: (rt) => mailboxRouter(rt),
  },
});
