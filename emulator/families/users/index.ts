/** What the users family offers the other families. */
export { type InvitationRow } from "./invitations-repository.js";
export { insertApiKey } from "./api-keys.js";
export { addAuthenticators } from "./authenticators.js";
