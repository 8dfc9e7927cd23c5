/** What the users family offers the other families and the root (the fixtures' check and seeding). */
export type { InvitationRow } from "./invitations-repository.js";
export { invitationsOf } from "./invitations.js";
export { API_KEY_CREDENTIAL_TYPE, insertApiKey, MAX_LONG_LIVED_KEYS_PER_USER } from "./api-keys.js";
export { addAuthenticators } from "./authenticators.js";
export { addCredentials, deleteCredentials, OAUTH_PROVIDERS } from "./credentials.js";
export { addOauthProviders, userForOidcToken } from "./oauth-providers.js";
export type { OauthProviderParams } from "./oauth-providers.js";
export { createUser, insertUser } from "./users.js";
export type { UserParams } from "./users.js";
