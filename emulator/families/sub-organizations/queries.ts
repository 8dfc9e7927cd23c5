/**
 * list_suborgs and list_verified_suborgs: the parent's live sub-organizations, optionally
 * filtered by one property of their users, credentials, wallets or OAuth identities;
 * paginated by sub-organization id (creation order).
 */
import { invalidArgument } from "../../core/errors.js";
import { verifyOidcToken } from "../../core/auth/oidc-tokens.js";
import { sameEmail, samePhone } from "../../core/auth/contacts.js";
import type { PaginationOptions } from "../../core/vocabulary/pagination.js";
import { pageLimit } from "../../core/vocabulary/pagination.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import { quote } from "../../core/input-error.js";
import { holdsAddress } from "../wallets/index.js";

export const VERIFIED_SUBORG_FILTER_TYPES = ["EMAIL", "PHONE_NUMBER"] as const;
export const SUBORG_FILTER_TYPES = ["NAME", "USERNAME", "EMAIL", "PHONE_NUMBER", "CREDENTIAL_ID", "PUBLIC_KEY", "WALLET_ACCOUNT_ADDRESS", "OIDC_TOKEN", "OAUTH_CLAIM"] as const;

type ListBody = { filterType?: string; filterValue?: string; paginationOptions?: { limit?: string; before?: string; after?: string } };

function identityFilter(ctx: QueryContext, iss: string, sub: string, aud: string): (o: OrganizationRow) => boolean {
  const orgs = new Set(ctx.rt.store.oauthProviders.byIdentity(iss, sub, aud).map((p) => p.orgId));
  return (o) => orgs.has(o.id);
}

/** The predicate a filter stands for; `verified` restricts EMAIL / PHONE_NUMBER to verified contacts. */
function filterFor(ctx: QueryContext, type: string, value: string, verified: boolean): (o: OrganizationRow) => boolean {
  const { store } = ctx.rt;
  const users = (o: OrganizationRow) => store.users.list(o.id);
  switch (type) {
    case "NAME":
      return (o) => o.name === value;
    case "USERNAME":
      return (o) => users(o).some((u) => u.name === value);
    case "EMAIL":
      return (o) => users(o).some((u) => sameEmail(u.email, value) && (!verified || u.emailVerified));
    case "PHONE_NUMBER":
      return (o) => users(o).some((u) => samePhone(u.phone, value) && (!verified || u.phoneVerified));
    case "CREDENTIAL_ID": {
      const id = value.replace(/=+$/, "");
      const orgs = new Set(store.authenticators.byCredentialId(id).map((a) => a.orgId));
      return (o) => orgs.has(o.id);
    }
    case "PUBLIC_KEY": {
      const key = value.toLowerCase();
      const orgs = new Set(store.apiKeys.byPublicKeyAnywhere(key).map((k) => k.orgId));
      return (o) => orgs.has(o.id) || users(o).some((u) => store.authenticators.forUser(u.id).some((a) => a.publicKey.toLowerCase() === key));
    }
    case "WALLET_ACCOUNT_ADDRESS":
      return (o) => holdsAddress(ctx.rt, o.id, value);
    case "OIDC_TOKEN": {
      const c = verifyOidcToken(ctx.rt, value, "filterValue");
      return identityFilter(ctx, c.iss, c.sub, c.aud);
    }
    case "OAUTH_CLAIM": {
      let claim: { issuer?: unknown; subject?: unknown; audience?: unknown };
      try {
        claim = JSON.parse(value);
      } catch {
        throw invalidArgument("OAUTH_CLAIM filterValue must be JSON {issuer, subject, audience}", "filterValue");
      }
      if (typeof claim?.issuer !== "string" || typeof claim.subject !== "string" || typeof claim.audience !== "string")
        throw invalidArgument("OAUTH_CLAIM filterValue must be JSON {issuer, subject, audience}", "filterValue");
      return identityFilter(ctx, claim.issuer, claim.subject, claim.audience);
    }
    default:
      throw invalidArgument(`invalid filterType ${quote(type)}: expected one of ${SUBORG_FILTER_TYPES.join(", ")}`, "filterType");
  }
}

export function listSubOrgs(ctx: QueryContext, b: ListBody, allowed: readonly string[], verified: boolean): { organizationIds: string[] } {
  // Without a filter, list_verified_suborgs lists the sub-organizations with at least one verified
  // email or phone number (the document requires only organizationId).
  let keep: (o: OrganizationRow) => boolean = verified ? (o) => ctx.rt.store.users.list(o.id).some((u) => (u.email && u.emailVerified) || (u.phone && u.phoneVerified)) : () => true;
  if (b.filterType) {
    if (!allowed.includes(b.filterType)) throw invalidArgument(`invalid filterType ${quote(b.filterType)}: expected one of ${allowed.join(", ")}`, "filterType");
    if (!b.filterValue) throw invalidArgument("filterValue is required with filterType", "filterValue");
    keep = filterFor(ctx, b.filterType, b.filterValue, verified);
  }
  return { organizationIds: keysetPage(ctx, b.paginationOptions ?? {}, keep, b.filterType || verified ? 200 : undefined).map((o) => o.id) };
}

type Position = { createdAt: number; id: string };
const atOrPast = (o: Position, p: Position) => o.createdAt > p.createdAt || (o.createdAt === p.createdAt && o.id >= p.id);

/**
 * The page of the caller's live sub-organizations (creation order) that `pageOf` would give
 * over the whole list, read by keyset from the cursor's position instead: `after` the items
 * that follow it, `before` alone the last `limit` that precede it, both the first `limit`
 * between them; `keep` filters after the cursors are placed. Rows are read in batches
 * (`batch`, default the page size) until the page is full, so a page costs the same at 10 or
 * 10,000 sub-organizations.
 */
function keysetPage(ctx: QueryContext, p: PaginationOptions, keep: (o: OrganizationRow) => boolean, batch?: number): OrganizationRow[] {
  const { store } = ctx.rt;
  const limit = pageLimit(p.limit);
  const position = (id: string | undefined, field: string): Position | undefined => {
    if (!id) return undefined;
    const o = store.organizations.get(id);
    if (!o || o.parentId !== ctx.org.id || store.subOrganizations.isDeleted(o.id)) throw invalidArgument(`unknown pagination cursor: ${id}`, field);
    return o;
  };
  const after = position(p.after, "paginationOptions.after");
  const before = position(p.before, "paginationOptions.before");
  const backwards = before !== undefined && after === undefined;
  const size = batch ?? limit;
  const page: OrganizationRow[] = [];
  let from = backwards ? before : after;
  for (;;) {
    const rows = store.organizations.childrenFrom(ctx.org.id, from, backwards ? "desc" : "asc", size);
    for (const o of rows) {
      if (!backwards && before && atOrPast(o, before)) return page;
      if (keep(o) && page.push(o) === limit) return backwards ? page.reverse() : page;
    }
    if (rows.length < size) return backwards ? page.reverse() : page;
    from = rows[rows.length - 1];
  }
}

export const subOrganizationQueryOperations = [
  defineQuery("list_suborgs", {
    run(ctx, b) {
      return listSubOrgs(ctx, b, SUBORG_FILTER_TYPES, false);
    },
  }),
  defineQuery("list_verified_suborgs", {
    run(ctx, b) {
      return listSubOrgs(ctx, b, VERIFIED_SUBORG_FILTER_TYPES, true);
    },
  }),
];
