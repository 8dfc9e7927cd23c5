/** The OAuth2 providers the emulator plays (X, Discord), and the `sub` prefix of the id_tokens it mints for each (e.g. `x:123456789`). */
export const OAUTH2_SUBJECT_PREFIX: Record<string, string> = { OAUTH2_PROVIDER_X: "x", OAUTH2_PROVIDER_DISCORD: "discord" };
