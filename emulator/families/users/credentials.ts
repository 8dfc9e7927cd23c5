/**
 * A user's credentials of one kind (API keys, authenticators, OAuth providers) are added and
 * deleted alike by create_<kind> and delete_<kind>: the user must exist, the list must not be
 * empty, ids to delete must be distinct and each must be a credential of that user (else 404,
 * nothing deleted). A small descriptor per kind says what differs: its names, how it is
 * added (with its own checks and limits), and its rows.
 */
import { notFound } from "../../core/errors.js";
import type { Store } from "../../core/store/index.js";
import { addApiKeys, type ApiKeyParams } from "./api-keys.js";
import { addAuthenticators, type AuthenticatorParams } from "./authenticators.js";
import { addOauthProviders, type OauthProviderParams } from "./oauth-providers.js";
import { requireDistinct, requireNonEmpty, requireUser } from "../../core/vocabulary/lookups.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

/** A kind's repository, as the generic deletion uses it. */
type CredentialRows = { get(orgId: string, id: string): { userId: string } | undefined; delete(id: string): void };

export type CredentialKind<P> = {
  /** As "not found" messages name one: `api key`. */
  noun: string;
  /** The request's parameter with the new credentials, and the one with the ids to delete. */
  listParam: string;
  idsParam: string;
  /** Checks and stores the new credentials of one user (its own checks and limits); returns their ids. */
  add(ctx: DomainContext, orgId: string, userId: string, list: P[], field: string): string[];
  rows(store: Store): CredentialRows;
};

export const API_KEYS: CredentialKind<ApiKeyParams> = {
  noun: "api key",
  listParam: "apiKeys",
  idsParam: "apiKeyIds",
  add: addApiKeys,
  rows: (s) => s.apiKeys,
};

export const AUTHENTICATORS: CredentialKind<AuthenticatorParams> = {
  noun: "authenticator",
  listParam: "authenticators",
  idsParam: "authenticatorIds",
  add: addAuthenticators,
  rows: (s) => s.authenticators,
};

export const OAUTH_PROVIDERS: CredentialKind<OauthProviderParams> = {
  noun: "oauth provider",
  listParam: "oauthProviders",
  idsParam: "providerIds",
  add: addOauthProviders,
  rows: (s) => s.oauthProviders,
};

/** Adds credentials of `kind` to a user of the organization; returns their ids. */
export function addCredentials<P>(ctx: DomainContext, kind: CredentialKind<P>, userId: string, list: P[]): string[] {
  const user = requireUser(ctx.rt.store, ctx.org.id, userId, "parameters.userId");
  requireNonEmpty(list, `parameters.${kind.listParam}`);
  return kind.add(ctx, ctx.org.id, user.id, list, `parameters.${kind.listParam}`);
}

/** Deletes credentials of `kind` from a user of the organization, all or none; returns the ids. */
export function deleteCredentials(ctx: DomainContext, kind: CredentialKind<unknown>, userId: string, ids: string[]): string[] {
  const field = `parameters.${kind.idsParam}`;
  requireUser(ctx.rt.store, ctx.org.id, userId, "parameters.userId");
  requireNonEmpty(ids, field);
  requireDistinct(ids, field);
  const rows = kind.rows(ctx.rt.store);
  for (const id of ids) {
    if (rows.get(ctx.org.id, id)?.userId !== userId) throw notFound(`${kind.noun} not found for user ${userId}: ${id}`);
  }
  for (const id of ids) rows.delete(id);
  return ids;
}
