/** What the users family offers the other families. */
export { type InvitationRow } from "./invitations-repository.js";
