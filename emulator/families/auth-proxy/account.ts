/**
 * `/v1/account`: which sub-organization of the configuration's organization holds an account,
 * by the same filters as list_suborgs. EMAIL and PHONE_NUMBER match verified contacts only
 * (as list_verified_suborgs), and need proof of access to the contact when the configuration
 * says so (`verificationTokenRequiredForGetAccountPii`): a verification token for that contact,
 * or an OIDC token whose verified email is it.
 */
import { invalidArgument, notFound, permissionDenied } from "../../core/errors.js";
import { listSubOrgs, SUBORG_FILTER_TYPES, VERIFIED_SUBORG_FILTER_TYPES } from "../sub-organizations/index.js";
import { verifyOidcToken } from "../../core/auth/oidc-tokens.js";
import { sameEmail, samePhone } from "../../core/auth/contacts.js";
import { verifyEs256Jwt } from "../../bundles/index.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import { proxyCaller } from "./forward.js";
import type { ProxyContext } from "../../core/vocabulary/contexts.js";
import { quote } from "../../core/input-error.js";

export const ACCOUNT_FILTER_TYPES = ["CREDENTIAL_ID", "NAME", "USERNAME", "EMAIL", "PHONE_NUMBER", "OIDC_TOKEN", "PUBLIC_KEY"];
const CONTACT_FILTERS: Record<string, string> = { EMAIL: "OTP_TYPE_EMAIL", PHONE_NUMBER: "OTP_TYPE_SMS" };

/** The first (oldest) live sub-organization matching the filter, if any. */
export function findSubOrganization(px: ProxyContext, filterType: string, filterValue: string): OrganizationRow | undefined {
  const ctx = { rt: px.rt, now: px.now, org: px.org, caller: proxyCaller(px) };
  const verified = !!CONTACT_FILTERS[filterType];
  const allowed = verified ? VERIFIED_SUBORG_FILTER_TYPES : SUBORG_FILTER_TYPES;
  const { organizationIds } = listSubOrgs(ctx, { filterType, filterValue, paginationOptions: { limit: "1" } }, allowed, verified);
  return organizationIds[0] ? px.rt.store.organizations.get(organizationIds[0]) : undefined;
}

/** Claims of a verification token this instance signed (signature only; use is not consumed). */
export function verificationTokenClaims(px: ProxyContext, token: string, field: string): Record<string, unknown> {
  try {
    return verifyEs256Jwt(token, px.rt.keys.enclave.tlsFetcher.publicKey).payload;
  } catch {
    throw invalidArgument("invalid verification token", field);
  }
}

function proveContact(px: ProxyContext, b: { filterType: string; filterValue: string; verificationToken?: string; oidcToken?: string }): void {
  const type = CONTACT_FILTERS[b.filterType]!;
  const same = (v: unknown) => typeof v === "string" && (type === "OTP_TYPE_EMAIL" ? sameEmail(v, b.filterValue) : samePhone(v, b.filterValue));
  if (b.verificationToken) {
    const c = verificationTokenClaims(px, b.verificationToken, "verificationToken");
    if (c.verification_type !== type || !same(c.contact)) throw permissionDenied("verification token does not prove access to this contact");
    if (!/^\d+$/.test(String(c.exp)) || Number(c.exp) <= px.now) throw invalidArgument("verification token has expired", "verificationToken");
    return;
  }
  if (b.oidcToken && type === "OTP_TYPE_EMAIL") {
    const c = verifyOidcToken(px.rt, b.oidcToken, "oidcToken");
    if (c.email_verified === true && same(c.email)) return;
    throw permissionDenied("OIDC token does not carry this email as verified");
  }
  throw permissionDenied(`a verificationToken (or an oidcToken for email) is required to look up an account by ${b.filterType}`);
}

export function getAccount(px: ProxyContext, b: { filterType: string; filterValue: string; verificationToken?: string; oidcToken?: string }): { organizationId?: string } {
  if (!ACCOUNT_FILTER_TYPES.includes(b.filterType))
    throw invalidArgument(`invalid filterType ${quote(b.filterType)}: expected one of ${ACCOUNT_FILTER_TYPES.join(", ")}`, "filterType");
  if (!b.filterValue) throw invalidArgument("filterValue must not be empty", "filterValue");
  if (CONTACT_FILTERS[b.filterType] && (px.settings.verificationTokenRequiredForGetAccountPii || b.verificationToken || b.oidcToken)) proveContact(px, b);
  const org = findSubOrganization(px, b.filterType, b.filterValue);
  return org ? { organizationId: org.id } : {};
}

/** The sub-organization a login addresses: the one named (it must belong to this configuration's organization) or the one found. */
export function loginTarget(px: ProxyContext, organizationId: string | undefined, find: () => OrganizationRow | undefined, what: string): OrganizationRow {
  if (organizationId) {
    const org = px.rt.store.organizations.get(organizationId);
    if (!org || org.parentId !== px.org.id || px.rt.store.subOrganizations.isDeleted(org.id))
      throw notFound(`no sub-organization ${organizationId} in the auth proxy's organization`);
    return org;
  }
  const org = find();
  if (!org) throw notFound(`no sub-organization found for this ${what}`);
  return org;
}
