/**
 * Uniqueness rules. Each rule is a UNIQUE index in the schema (the index is the guard, so
 * two submissions racing for one name cannot both land); a repository write that breaks one
 * is answered here with the service's error instead of SQLite's. A rejected write throws
 * inside the activity's transaction, so nothing of that activity is written.
 */
import { documentedError, invalidArgument, type TurnkeyError } from "../errors.js";
import { quote } from "../input-error.js";

/** The rules, by the index columns SQLite names in its "UNIQUE constraint failed" message. */
export const UNIQUE_RULES = {
  wallet: {
    columns: "wallets.org_id, wallets.name",
    error: (name: string) =>
      invalidArgument(`wallet label must be unique: this organization already has a wallet named ${quote(name)} (parameters.walletName)`, "parameters.walletName"),
  },
  walletAccount: {
    columns: "wallet_accounts.wallet_id, wallet_accounts.curve, wallet_accounts.path_key, wallet_accounts.address_format",
    error: (path: string) => documentedError("INVALID_PATH", `${path} is already used by an account of this wallet with the same curve and address format`, "parameters.accounts"),
  },
  privateKey: {
    columns: "private_keys.org_id, private_keys.name",
    error: (name: string) => invalidArgument(`private key name already in use: ${name}`, "parameters.privateKeyName"),
  },
  tag: {
    columns: "tags.org_id, tags.tag_type, tags.name",
    error: (name: string, tagType: string) =>
      invalidArgument(`${tagType === "TAG_TYPE_USER" ? "user tag" : "private key tag"} name already in use: ${name}`, tagType === "TAG_TYPE_USER" ? "parameters.userTagName" : "parameters.privateKeyTagName"),
  },
  policy: {
    columns: "policies.org_id, policies.name",
    error: () => documentedError("POLICY_LABEL_NOT_UNIQUE", undefined, "parameters.policyName"),
  },
  apiKey: {
    columns: "api_keys.user_id, api_keys.public_key",
    error: (publicKey: string) => invalidArgument(`api key with public key ${publicKey} already exists for this user`, "parameters.apiKeys.publicKey"),
  },
  authenticator: {
    columns: "authenticators.org_id, authenticators.credential_id",
    error: (credentialId: string) =>
      invalidArgument(`an authenticator with credential ID ${credentialId} already exists`, "parameters.authenticators.attestation.credentialId"),
  },
  oauthProvider: {
    columns: "oauth_providers.org_id, oauth_providers.issuer, oauth_providers.subject, oauth_providers.audience",
    error: () =>
      invalidArgument(
        "an OAuth provider with this issuer, subject and audience already exists in the organization",
        "parameters.oauthProviders",
        "OAUTH_PROVIDER_ALREADY_EXISTS",
      ),
  },
} as const;

type Rule = { columns: string };

/** True for SQLite's UNIQUE violation of exactly this rule's index (not the primary key, not another index). */
export function violates(err: unknown, rule: Rule): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return !!e && e.code === "SQLITE_CONSTRAINT_UNIQUE" && typeof e.message === "string" && e.message === `UNIQUE constraint failed: ${rule.columns}`;
}

/** Runs one write; a breach of `rule` leaves as `error()`, anything else as it was. */
export function uniquely<T>(rule: Rule, error: () => TurnkeyError, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (violates(err, rule)) throw error();
    throw err;
  }
}
