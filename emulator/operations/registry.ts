/**
 * The registry: every emulated operation of the coordinator (activities and queries) and of
 * the auth proxy, gathered from the entries defined next to their handlers. It sits at the
 * top: the composition root (index.ts) puts `registry` in the runtime, where the engine, both
 * routers, the proxy, the 501 answer and /openapi.json read it; none of them imports this
 * module (test/architecture/import-cycles.test.ts). The parity table, the conformance CLI and
 * tests import it directly.
 */
import { coordinator, proxy, type OperationContract } from "../../contracts/index.js";
import { legacyVariant } from "../../contracts/legacy.js";
import type { ActivityEntry, OperationEntry, ProxyEntry, QueryEntry, Registry } from "./define.js";
import { userOperations } from "../activities/handlers/users.js";
import { apiOnlyUserOperations } from "../activities/handlers/api-only-users.js";
import { apiKeyOperations } from "../activities/handlers/api-keys.js";
import { tagOperations } from "../activities/handlers/tags.js";
import { authenticatorOperations } from "../activities/handlers/authenticators.js";
import { walletOperations } from "../activities/handlers/wallets.js";
import { privateKeyOperations } from "../activities/handlers/private-keys.js";
import { signingOperations } from "../activities/handlers/signing.js";
import { oauth2Operations } from "../activities/handlers/oauth2.js";
import { subOrganizationOperations } from "../activities/handlers/sub-organizations.js";
import { exportImportOperations } from "../activities/handlers/export-import.js";
import { sessionOperations } from "../activities/handlers/sessions.js";
import { otpOperations } from "../activities/handlers/otp.js";
import { oauthOperations } from "../activities/handlers/oauth.js";
import { recoveryOperations } from "../activities/handlers/recovery.js";
import { policyOperations } from "../activities/handlers/policies.js";
import { organizationOperations } from "../activities/handlers/organization.js";
import { voteOperations } from "../activities/votes.js";
import { mfaPolicyOperations } from "../activities/handlers/mfa-policies.js";
import { mfaPolicyQueryOperations } from "../queries/mfa-policies.js";
import { userQueryOperations } from "../queries/users.js";
import { organizationQueryOperations } from "../queries/organizations.js";
import { activityQueryOperations } from "../queries/activities.js";
import { walletQueryOperations } from "../queries/wallets.js";
import { subOrganizationQueryOperations } from "../queries/sub-organizations.js";
import { oauthQueryOperations } from "../queries/oauth.js";
import { policyQueryOperations } from "../queries/policies.js";
import { emailEventQueryOperations } from "../queries/email-events.js";
import { invitationOperations } from "../activities/handlers/invitations.js";
import { sessionProfileOperations } from "../activities/handlers/session-profiles.js";
import { sessionProfileQueryOperations } from "../queries/session-profiles.js";
import { proxyEndpoints } from "../proxy/endpoints.js";
import { swapConfigOperations } from "../activities/handlers/swap-config.js";
import { sendTransactionOperations } from "../activities/handlers/send-transactions.js";
import { chainDataQueryOperations } from "../queries/chain-data.js";
import { earnOperations } from "../activities/handlers/earn.js";
import { earnQueryOperations } from "../queries/earn.js";
import { webhookOperations } from "../webhooks/operations.js";
import { fiatOnRampOperations } from "../activities/handlers/fiat-on-ramp.js";
import { fiatOnRampQueryOperations } from "../queries/fiat-on-ramp.js";
import { tvcOperations } from "../activities/handlers/tvc.js";
import { tvcQueryOperations } from "../queries/tvc.js";
import { tvcQuorumKeyOperations } from "../activities/handlers/tvc-quorum-keys.js";
import { appProofQueryOperations } from "../queries/app-proofs.js";
import { secretOperations } from "../activities/handlers/secrets.js";
import { secretQueryOperations } from "../queries/secrets.js";
import { ipAllowlistOperations } from "../activities/handlers/ip-allowlist.js";
import { ipAllowlistQueryOperations } from "../queries/ip-allowlist.js";
import { velocityControlOperations } from "../activities/handlers/velocity-controls.js";

const entries: OperationEntry[] = [
  ...sendTransactionOperations,
  ...chainDataQueryOperations,
  ...earnOperations,
  ...earnQueryOperations,
  ...userOperations,
  ...apiOnlyUserOperations,
  ...apiKeyOperations,
  ...tagOperations,
  ...authenticatorOperations,
  ...walletOperations,
  ...privateKeyOperations,
  ...signingOperations,
  ...oauth2Operations,
  ...subOrganizationOperations,
  ...exportImportOperations,
  ...sessionOperations,
  ...otpOperations,
  ...oauthOperations,
  ...recoveryOperations,
  ...policyOperations,
  ...organizationOperations,
  ...voteOperations,
  ...mfaPolicyOperations,
  ...mfaPolicyQueryOperations,
  ...userQueryOperations,
  ...organizationQueryOperations,
  ...activityQueryOperations,
  ...walletQueryOperations,
  ...subOrganizationQueryOperations,
  ...oauthQueryOperations,
  ...policyQueryOperations,
  ...emailEventQueryOperations,
  ...invitationOperations,
  ...sessionProfileOperations,
  ...sessionProfileQueryOperations,
  ...webhookOperations,
  ...secretOperations,
  ...secretQueryOperations,
  ...ipAllowlistOperations,
  ...ipAllowlistQueryOperations,
  ...tvcOperations,
  ...tvcQueryOperations,
  ...tvcQuorumKeyOperations,
  ...appProofQueryOperations,
  ...swapConfigOperations,
  ...proxyEndpoints,
  ...fiatOnRampOperations,
  ...fiatOnRampQueryOperations,
  ...velocityControlOperations,
];

function index<E extends OperationEntry>(kind: E["kind"]): ReadonlyMap<string, E> {
  const map = new Map<string, E>();
  for (const e of entries) {
    if (e.kind !== kind) continue;
    if (map.has(e.name)) throw new Error(`operation registry: ${kind} ${e.name} is defined twice`);
    map.set(e.name, e as E);
  }
  return map;
}

export const activities: ReadonlyMap<string, ActivityEntry> = index<ActivityEntry>("submit");
export const queries: ReadonlyMap<string, QueryEntry> = index<QueryEntry>("query");
export const endpoints: ReadonlyMap<string, ProxyEntry> = index<ProxyEntry>("proxy");

/** The registry entry behind a routed operation, if it is emulated. */
export function entryFor(kind: "submit" | "query" | "proxy", name: string): OperationEntry | undefined {
  return (kind === "submit" ? activities : kind === "query" ? queries : endpoints).get(name);
}

/** The contract path of an entry. */
export function pathOf(e: OperationEntry): string {
  return e.kind === "proxy" ? `/v1/${e.name}` : `/public/v1/${e.kind}/${e.name}`;
}

/** Every activity type the auth proxy submits as its proxy user (current and accepted older versions). */
export const proxyForwardedActivityTypes: readonly string[] = [...activities.values()]
  .filter((e) => e.proxyForwarded)
  .flatMap((e) => [coordinator[pathOf(e)]!.activityType!, ...e.legacy]);

/** Entries whose operation the published contract does not route (a failing registry test lists them). */
export function unroutedEntries(): OperationEntry[] {
  return entries.filter((e) => !(e.kind === "proxy" ? proxy[pathOf(e)] : coordinator[pathOf(e)]));
}

/**
 * The one place an activity type is read against a submit operation: its entry, and the contract
 * read for that type (the operation itself for its current type, or the older version or SDK
 * spelling its entry's `legacy` list accepts). A type the operation does not accept leaves the
 * contract as it is, whose schema then refuses it naming the field.
 */
export function resolveActivity(op: OperationContract, activityType: unknown): { op: OperationContract; entry: ActivityEntry | undefined; accepted: boolean } {
  const entry = activities.get(op.name);
  if (typeof activityType !== "string" || activityType === op.activityType) return { op, entry, accepted: true };
  const variant = entry && legacyVariant(op, activityType, entry.legacy);
  return variant ? { op: variant, entry, accepted: true } : { op, entry, accepted: false };
}

/** The submit operation (contract read for that type) and entry behind an activity type, older types included. */
export function operationForActivityType(activityType: string): { op: OperationContract; entry: ActivityEntry } | undefined {
  for (const entry of activities.values()) {
    const { op, accepted } = resolveActivity(coordinator[pathOf(entry)]!, activityType);
    if (accepted) return { op, entry };
  }
  return undefined;
}

/** The catalog, composed once, as the runtime carries it. */
export const registry: Registry = { activities, queries, endpoints, entryFor, resolveActivity, operationForActivityType, proxyForwardedActivityTypes };
