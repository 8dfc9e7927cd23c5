/**
 * A user's credentials of one kind (API keys, authenticators, OAuth providers) are added and
 * deleted alike by create_<kind> and delete_<kind>: the user must exist, the list must not be
 * empty, ids to delete must be distinct and each must be a credential of that user (else 404,
 * nothing deleted). A small descriptor per kind says what differs: its names, how it is
 * added (with its own checks and limits), and its rows.
 */
import { notFound } from "../errors.js";
import type { Store } from "../store/index.js";
import { addApiKeys, type ApiKeyParams } from "./api-keys.js";
import { addAuthenticators, type AuthenticatorParams } from "./authenticators.js";
import { addOauthProviders, type OauthProviderParams } from "./oauth-providers.js";
import { requireDistinct, requireNonEmpty, requireUser } from "./lookups.js";
import type { DomainContext } from "./context.js";

export type CredentialKind<P> = {
  /** As "not found" messages name one: `api key`. */
  noun: string;
  /** The request's parameter with the new credentials, and the one with the ids to delete. */
  listParam: string;
  idsParam: string;
  /** Checks and stores the new credentials of one user; returns their ids. */
  add(ctx: DomainContext, orgId: string, userId: string, list: P[], field: string): string[];
  /** The user a credential of the organization belongs to (undefined: no such credential). */
  ownerOf(store: Store, orgId: string, id: string): string | undefined;
  remove(store: Store, id: string): void;
};

export const API_KEYS: CredentialKind<ApiKeyParams> = {
  noun: "api key",
  listParam: "apiKeys",
  idsParam: "apiKeyIds",
  add: addApiKeys,
  ownerOf: (store, orgId, id) => store.apiKeys.get(orgId, id)?.userId,
  remove: (store, id) => store.apiKeys.delete(id),
};

export const AUTHENTICATORS: CredentialKind<AuthenticatorParams> = {
  noun: "authenticator",
  listParam: "authenticators",
  idsParam: "authenticatorIds",
  add: addAuthenticators,
  ownerOf: (store, orgId, id) => store.authenticators.get(orgId, id)?.userId,
  remove: (store, id) => store.authenticators.delete(id),
};

export const OAUTH_PROVIDERS: CredentialKind<OauthProviderParams> = {
  noun: "oauth provider",
  listParam: "oauthProviders",
  idsParam: "providerIds",
  add: addOauthProviders,
  ownerOf: (store, orgId, id) => store.oauthProviders.get(orgId, id)?.userId,
  remove: (store, id) => store.oauthProviders.delete(id),
};

/** Adds credentials of `kind` to a user of the organization; returns their ids. */
export function addCredentials<P>(ctx: DomainContext, kind: CredentialKind<P>, userId: string, list: P[]): string[] {
  const user = requireUser(ctx.rt.store, ctx.org.id, userId, "parameters.userId");
  requireNonEmpty(list, `parameters.${kind.listParam}`);
  return kind.add(ctx, ctx.org.id, user.id, list, `parameters.${kind.listParam}`);
}

/** Deletes credentials of `kind` from a user of the organization, all or none; returns the ids. */
export function deleteCredentials(ctx: DomainContext, kind: CredentialKind<unknown>, userId: string, ids: string[]): string[] {
  const { store } = ctx.rt;
  const field = `parameters.${kind.idsParam}`;
  requireUser(store, ctx.org.id, userId, "parameters.userId");
  requireNonEmpty(ids, field);
  requireDistinct(ids, field);
  for (const id of ids) {
    if (kind.ownerOf(store, ctx.org.id, id) !== userId) throw notFound(`${kind.noun} not found for user ${userId}: ${id}`);
  }
  for (const id of ids) kind.remove(store, id);
  return ids;
}
