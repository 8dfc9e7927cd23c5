/**
 * The auth proxy's configuration, which the published API gives no route for (the real
 * service manages it from its dashboard): `GET /emulator/v1/auth-proxy?organizationId=`
 * reads it, `POST /emulator/v1/auth-proxy {organizationId, enabled?, settings?}` enables or
 * disables the proxy of a top-level organization and merges settings into its configuration.
 */
import { Router } from "express";
import { invalidArgument, notFound } from "../../core/errors.js";
import { sendRpcError } from "../../core/http/errors.js";
import { objectBody } from "../../core/http/body.js";
import { disableAuthProxy, enableAuthProxy } from "./provision.js";
import { mergeSettings, type AuthProxySettings } from "./settings.js";
import type { AuthProxyConfigRow } from "./repository.js";
import type { Runtime } from "../../core/runtime.js";

function view(row: AuthProxyConfigRow) {
  return { organizationId: row.orgId, configId: row.configId, enabled: row.enabled, proxyUserId: row.proxyUserId, settings: row.settings };
}

export function authProxyControlRouter(rt: Runtime): Router {
  const router = Router();
  const topLevelOrg = (id: unknown) => {
    if (typeof id !== "string" || !id) throw invalidArgument("organizationId is required", "organizationId");
    const org = rt.store.organizations.get(id);
    if (!org) throw notFound(`organization not found: ${id}`);
    if (org.parentId) throw invalidArgument("only a top-level organization has an auth proxy", "organizationId");
    return org;
  };
  router.get("/emulator/v1/auth-proxy", (req, res) => {
    try {
      const org = topLevelOrg(req.query.organizationId);
      const row = rt.store.authProxyConfigs.forOrg(org.id);
      if (!row) throw notFound(`the auth proxy has never been enabled for organization ${org.id}`);
      res.json(view(row));
    } catch (err) {
      sendRpcError(res, err);
    }
  });
  router.post("/emulator/v1/auth-proxy", objectBody(), (req, res) => {
    try {
      const b = (req.body ?? {}) as { organizationId?: unknown; enabled?: unknown; settings?: unknown };
      const org = topLevelOrg(b.organizationId);
      if (b.enabled !== undefined && typeof b.enabled !== "boolean") throw invalidArgument("enabled must be a boolean", "enabled");
      if (b.settings !== undefined && (typeof b.settings !== "object" || b.settings === null || Array.isArray(b.settings)))
        throw invalidArgument("settings must be an object of auth proxy settings", "settings");
      const now = rt.clock.now();
      rt.store.tx(() => {
        if (b.enabled === true && !rt.store.authProxyConfigs.forOrg(org.id)?.enabled) enableAuthProxy(rt, org.id, now);
        if (b.enabled === false) disableAuthProxy(rt.store, org.id, now);
        if (b.settings !== undefined) {
          const cur = rt.store.authProxyConfigs.forOrg(org.id);
          if (!cur) throw invalidArgument("the auth proxy has never been enabled for this organization: send enabled: true first", "organizationId");
          rt.store.authProxyConfigs.update(org.id, { settings: mergeSettings(cur.settings as AuthProxySettings, b.settings as AuthProxySettings, "settings") }, now);
        }
      });
      const row = rt.store.authProxyConfigs.forOrg(org.id);
      if (!row) throw notFound(`the auth proxy has never been enabled for organization ${org.id}`);
      res.json(view(row));
    } catch (err) {
      sendRpcError(res, err);
    }
  });
  return router;
}
