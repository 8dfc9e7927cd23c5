/** What the users family offers the other families. */
export { type InvitationRow } from "./invitations-repository.js";
export { insertApiKey } from "./api-keys.js";
export { addAuthenticators } from "./authenticators.js";
export { addCredentials, deleteCredentials, OAUTH_PROVIDERS } from "./credentials.js";
export { addOauthProviders, type OauthProviderParams, userForOidcToken } from "./oauth-providers.js";
export { createUser, type UserParams } from "./users.js";
