/** The OAuth family: OAuth providers and logins, OAuth 2.0 credentials and authentication, and the built-in OIDC issuer and OAuth 2.0 provider the control API serves. */
import { defineFamily } from "../../core/family.js";
import { oauthOperations } from "./activities.js";
import { oauth2Operations } from "./oauth2-activities.js";
import { oauthQueryOperations } from "./queries.js";
import { Oauth2 } from "./oauth2-repository.js";
import { oidcRouter } from "./oidc-routes.js";
import { oauth2ProviderRouter } from "./oauth2-routes.js";

export const oauthFamily = defineFamily({
  name: "oauth",
  operations: [...oauthOperations, ...oauth2Operations, ...oauthQueryOperations],
  repositories: (db) => ({ oauth2: new Oauth2(db) }),
  routes: {
    control(rt) {
      const router = oidcRouter(rt);
      router.use(oauth2ProviderRouter(rt));
      return router;
    },
  },
});
