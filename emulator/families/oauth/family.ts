/** The OAuth family: OAuth providers and logins, OAuth 2.0 credentials and authentication, and the built-in OIDC issuer and OAuth 2.0 provider the control API serves. */
import { defineFamily } from "../../core/family.js";
import { oauthOperations } from "../../activities/handlers/oauth.js";
import { oauth2Operations } from "../../activities/handlers/oauth2.js";
import { oauthQueryOperations } from "../../queries/oauth.js";
import { Oauth2 } from "../../store/oauth2.js";
import { oidcRouter } from "../../control/oidc-routes.js";
import { oauth2ProviderRouter } from "../../control/oauth2-routes.js";

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
