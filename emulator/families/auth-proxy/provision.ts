/**
 * Enabling the auth proxy for an organization: a dedicated, non-root proxy user in it, the
 * proxy's P-256 API key on that user (private half sealed at rest), and one policy that lets
 * exactly that user run the activities the proxy forwards. Disabling keeps the row (and its
 * config id) but the proxy answers no more requests for it.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { invalidArgument } from "../../core/errors.js";
import { API_KEY_CREDENTIAL_TYPE, insertApiKey, insertUser } from "../users/index.js";
import { randomPrivateKey } from "../wallets/index.js";
import { publicKeyOf } from "../../curves/index.js";
import type { Store } from "../../core/store/index.js";
import type { AuthProxyConfigRow } from "./repository.js";
import type { AuthProxySettings } from "./settings.js";
import type { Registry } from "../../core/vocabulary/define.js";
import type { Random } from "../../core/random.js";

export const PROXY_USER_NAME = "Auth Proxy";
export const PROXY_POLICY_NAME = "Auth Proxy: forwarded auth activities";

/**
 * Applies only to the proxy user's own submissions, so it never makes another user's activity
 * wait for consensus; `forwarded` is the registry's proxyForwardedActivityTypes.
 */
export const proxyPolicyCondition = (proxyUserId: string, forwarded: readonly string[]) =>
  `approvers.any(user, user.id == '${proxyUserId}') && activity.type in [${forwarded.map((t) => `'${t}'`).join(", ")}]`;

/** What enabling the proxy needs: the store, and the registry for the activities it forwards. */
export type ProvisionRuntime = { store: Store; random: Random; registry: Pick<Registry, "proxyForwardedActivityTypes"> };

export type ProvisionIds = { configId?: string; proxyUserId?: string; proxyApiKeyId?: string; policyId?: string };

/**
 * Creates (or re-enables) the proxy of `orgId`. A disabled proxy gets a fresh user, key and
 * policy when its user was removed meanwhile; its config id and settings stay.
 */
export function enableAuthProxy(rt: ProvisionRuntime, orgId: string, now: number, settings: AuthProxySettings = {}, ids: ProvisionIds = {}): AuthProxyConfigRow {
  const { store } = rt;
  const existing = store.authProxyConfigs.forOrg(orgId);
  if (existing?.enabled) throw invalidArgument("the auth proxy is already enabled for this organization", "organizationId");
  if (existing && store.users.byId(existing.proxyUserId) && store.apiKeys.forUser(existing.proxyUserId).some((k) => k.id === existing.proxyApiKeyId)) {
    store.authProxyConfigs.update(orgId, { enabled: true }, now);
    return store.authProxyConfigs.forOrg(orgId)!;
  }
  const proxyUserId = ids.proxyUserId ?? rt.random.uuid();
  const proxyApiKeyId = ids.proxyApiKeyId ?? rt.random.uuid();
  insertUser(store, { id: proxyUserId, orgId, name: PROXY_USER_NAME }, now);
  const secret = randomPrivateKey("CURVE_P256", rt.random);
  const publicKey = bytesToHex(publicKeyOf("CURVE_P256", secret));
  insertApiKey(store, { id: proxyApiKeyId, orgId, userId: proxyUserId, name: "Auth Proxy key", publicKey, credentialType: API_KEY_CREDENTIAL_TYPE.API_KEY_CURVE_P256! }, now);
  const policyName = store.policies.byName(orgId, PROXY_POLICY_NAME) ? `${PROXY_POLICY_NAME} (${proxyUserId})` : PROXY_POLICY_NAME;
  store.policies.insert({
    id: ids.policyId ?? rt.random.uuid(),
    orgId,
    name: policyName,
    effect: "EFFECT_ALLOW",
    condition: proxyPolicyCondition(proxyUserId, rt.registry.proxyForwardedActivityTypes),
    consensus: null,
    time: null,
    notes: "Created by enable_auth_proxy: the proxy user may submit the auth activities it forwards.",
    createdAt: now,
    updatedAt: now,
  });
  const key = { proxyUserId, proxyApiKeyId, proxyPublicKey: publicKey, proxyKeySealed: store.sealer.seal(secret) };
  secret.fill(0);
  if (existing) {
    store.authProxyConfigs.update(orgId, { enabled: true, ...key }, now);
  } else {
    store.authProxyConfigs.insert({ orgId, configId: ids.configId ?? rt.random.uuid(), enabled: true, ...key, settings, createdAt: now, updatedAt: now });
  }
  return store.authProxyConfigs.forOrg(orgId)!;
}

export function disableAuthProxy(store: Store, orgId: string, now: number): void {
  const existing = store.authProxyConfigs.forOrg(orgId);
  if (!existing?.enabled) throw invalidArgument("the auth proxy is not enabled for this organization", "organizationId");
  store.authProxyConfigs.update(orgId, { enabled: false }, now);
}
