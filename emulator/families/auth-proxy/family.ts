/**
 * The auth-proxy family: the proxy's surface (`POST /v1/<op>` with `X-Auth-Proxy-Config-ID`),
 * its endpoints, `forward` into the activity engine as the proxy user, its configuration and
 * the control routes that enable and configure it.
 */
import { defineFamily } from "../../core/family.js";
import type { CorsPolicy } from "../../core/http/cors.js";
import { proxyEndpoints } from "./endpoints.js";
import type { ProxyClock } from "./forward.js";
import { proxyCors, proxyHandler, proxyServes } from "./router.js";
import { authProxyControlRouter } from "./control-routes.js";
import { AuthProxyConfigs } from "./repository.js";

declare module "../../core/runtime.js" {
  interface FamilyStates {
    authProxy: {
      /** The last timestamp the proxy stamped a forward with (forward.ts). */
      clock: ProxyClock;
      /** Its CORS, per configuration (router.ts `proxyCors`). */
      cors: CorsPolicy;
    };
  }
}

export const authProxyFamily = defineFamily({
  name: "auth-proxy",
  operations: proxyEndpoints,
  repositories: (db) => ({ authProxyConfigs: new AuthProxyConfigs(db) }),
  start(rt) {
    rt.families.authProxy = { clock: { lastMs: 0 }, cors: proxyCors(rt) };
  },
  hooks: {
    surfaceCors: (rt, req) => (proxyServes(rt, req.path) ? rt.families.authProxy.cors : undefined),
  },
  routes: {
    surface: (rt) => proxyHandler(rt),
    control: (rt) => authProxyControlRouter(rt),
  },
});
