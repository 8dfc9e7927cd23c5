import type { Db } from "./db.js";
import { prep } from "./statements.js";

/**
 * One organization's auth-proxy configuration: its public config id, whether the proxy is
 * enabled, the proxy user and the proxy key (its private half sealed), and the settings of
 * `update_auth_proxy_config` as JSON (see `emulator/proxy/settings.ts`).
 */
export type AuthProxyConfigRow = {
  orgId: string;
  configId: string;
  enabled: boolean;
  proxyUserId: string;
  proxyApiKeyId: string;
  proxyPublicKey: string;
  /** The proxy key's private half, sealed by the store's sealer. */
  proxyKeySealed: string;
  settings: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
};

type Raw = {
  org_id: string;
  config_id: string;
  enabled: number;
  proxy_user_id: string;
  proxy_api_key_id: string;
  proxy_public_key: string;
  proxy_key_sealed: string;
  settings: string;
  created_at: number;
  updated_at: number;
};

const fromRaw = (r: Raw): AuthProxyConfigRow => ({
  orgId: r.org_id,
  configId: r.config_id,
  enabled: r.enabled === 1,
  proxyUserId: r.proxy_user_id,
  proxyApiKeyId: r.proxy_api_key_id,
  proxyPublicKey: r.proxy_public_key,
  proxyKeySealed: r.proxy_key_sealed,
  settings: JSON.parse(r.settings),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class AuthProxyConfigs {
  constructor(private readonly db: Db) {}

  insert(c: AuthProxyConfigRow): void {
    prep(
      this.db,
      `INSERT INTO auth_proxy_configs (org_id, config_id, enabled, proxy_user_id, proxy_api_key_id, proxy_public_key, proxy_key_sealed, settings, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(c.orgId, c.configId, c.enabled ? 1 : 0, c.proxyUserId, c.proxyApiKeyId, c.proxyPublicKey, c.proxyKeySealed, JSON.stringify(c.settings), c.createdAt, c.updatedAt);
  }

  forOrg(orgId: string): AuthProxyConfigRow | undefined {
    const r = prep(this.db, "SELECT * FROM auth_proxy_configs WHERE org_id = ?").get(orgId) as Raw | undefined;
    return r && fromRaw(r);
  }

  byConfigId(configId: string): AuthProxyConfigRow | undefined {
    const r = prep(this.db, "SELECT * FROM auth_proxy_configs WHERE config_id = ?").get(configId) as Raw | undefined;
    return r && fromRaw(r);
  }

  /** Every enabled configuration (CORS preflights carry no config id). */
  enabled(): AuthProxyConfigRow[] {
    return (prep(this.db, "SELECT * FROM auth_proxy_configs WHERE enabled = 1").all() as Raw[]).map(fromRaw);
  }

  update(orgId: string, patch: Partial<Pick<AuthProxyConfigRow, "enabled" | "settings" | "proxyUserId" | "proxyApiKeyId" | "proxyPublicKey" | "proxyKeySealed">>, now: number): void {
    const cur = this.forOrg(orgId);
    if (!cur) return;
    const n = { ...cur, ...patch };
    prep(
      this.db,
      `UPDATE auth_proxy_configs SET enabled = ?, proxy_user_id = ?, proxy_api_key_id = ?, proxy_public_key = ?, proxy_key_sealed = ?, settings = ?, updated_at = ? WHERE org_id = ?`,
    ).run(n.enabled ? 1 : 0, n.proxyUserId, n.proxyApiKeyId, n.proxyPublicKey, n.proxyKeySealed, JSON.stringify(n.settings), now, orgId);
  }
}
