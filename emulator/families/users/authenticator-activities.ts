/** Passkeys: create_authenticators (V2; V1 in the browser's credential shape) and delete_authenticators, over the domain's credentials (credentials.ts). */
import { AUTHENTICATORS, addCredentials, deleteCredentials } from "./credentials.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";
import { checkFirstAuthenticators, currentAuthenticator } from "../../core/vocabulary/older-intents.js";

export const authenticatorOperations = [
  defineActivity("create_authenticators", {
    policy: { resource: "CREDENTIAL", action: "CREATE", source: "documented" },
    arrayLimits: { authenticators: ALLOWANCE.credentialsPerUser },
    authorization: "own-credential",
    olderVersions: {
      ACTIVITY_TYPE_CREATE_AUTHENTICATORS: {
        params: (p) => ({ userId: p.userId, authenticators: p.authenticators.map(currentAuthenticator) }),
        run(ctx, p, current) {
          checkFirstAuthenticators(p.authenticators, "parameters.authenticators", p.userId);
          return current();
        },
      },
    },
    run(ctx, p) {
      return { authenticatorIds: addCredentials(ctx, AUTHENTICATORS, p.userId, p.authenticators) };
    },
  }),

  defineActivity("delete_authenticators", {
    policy: { resource: "CREDENTIAL", action: "DELETE", source: "documented" },
    authorization: "own-credential",
    run(ctx, p) {
      return { authenticatorIds: deleteCredentials(ctx, AUTHENTICATORS, p.userId, p.authenticatorIds) };
    },
  }),
];
