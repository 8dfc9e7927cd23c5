import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper, updateRow } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    authProxyConfigs: AuthProxyConfigs;
  }
}

/**
 * One organization's auth-proxy configuration: its public config id, whether the proxy is
 * enabled, the proxy user and the proxy key (its private half sealed), and the settings of
 * `update_auth_proxy_config` as JSON (see `settings.ts`).
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

const rows = rowMapper<AuthProxyConfigRow>({ json: ["settings"], bool: ["enabled"] });

export class AuthProxyConfigs {
  constructor(private readonly db: Db) {}

  insert(c: AuthProxyConfigRow): void {
    insertRow(this.db, "auth_proxy_configs", rows, c);
  }

  forOrg(orgId: string): AuthProxyConfigRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM auth_proxy_configs WHERE org_id = ?").get(orgId));
  }

  byConfigId(configId: string): AuthProxyConfigRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM auth_proxy_configs WHERE config_id = ?").get(configId));
  }

  /** Every enabled configuration (CORS preflights carry no config id). */
  enabled(): AuthProxyConfigRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM auth_proxy_configs WHERE enabled = 1").all());
  }

  update(orgId: string, patch: Partial<Pick<AuthProxyConfigRow, "enabled" | "settings" | "proxyUserId" | "proxyApiKeyId" | "proxyPublicKey" | "proxyKeySealed">>, now: number): void {
    updateRow(this.db, "auth_proxy_configs", rows, orgId, { ...patch, updatedAt: now }, "org_id");
  }
}
