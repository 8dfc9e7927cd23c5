/** What the auth-proxy family offers the other families and the root (a fixture's proxy configuration). */
import type { Runtime } from "../../core/runtime.js";

export { enableAuthProxy, type ProvisionRuntime } from "./provision.js";
export { mergeSettings, settingsFromProviders, type AuthProxySettings } from "./settings.js";

/** An organization's auth-proxy configuration as the control API shows it: never its key, only its id, user and settings. */
export function authProxyOf(rt: Pick<Runtime, "store">, orgId: string): { configId: string; enabled: boolean; proxyUserId: string; settings: unknown } | null {
  const proxy = rt.store.authProxyConfigs.forOrg(orgId);
  return proxy ? { configId: proxy.configId, enabled: proxy.enabled, proxyUserId: proxy.proxyUserId, settings: proxy.settings } : null;
}

/** The organization an auth-proxy configuration id belongs to, if any (the rate limit counts a proxy request against it). */
export function organizationOfConfig(rt: Pick<Runtime, "store">, configId: string): string | null {
  return rt.store.authProxyConfigs.byConfigId(configId)?.orgId ?? null;
}
