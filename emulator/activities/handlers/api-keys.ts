/** API keys: create_api_keys (V2) and delete_api_keys, over the domain's credentials (domain/credentials.ts). */
import { API_KEYS, addCredentials, deleteCredentials } from "../../domain/credentials.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const apiKeyOperations = [
  defineActivity("create_api_keys", {
    policy: { resource: "CREDENTIAL", action: "CREATE", source: "documented", params: [["user_id", "userId"]] },
    arrayLimits: { apiKeys: ALLOWANCE.credentialsPerUser },
    authorization: "own-credential",
    run(ctx, p) {
      return { apiKeyIds: addCredentials(ctx, API_KEYS, p.userId, p.apiKeys) };
    },
  }),

  defineActivity("delete_api_keys", {
    policy: { resource: "CREDENTIAL", action: "DELETE", source: "documented", params: [["user_id", "userId"], ["api_key_ids", "apiKeyIds"]] },
    authorization: "own-credential",
    run(ctx, p) {
      return { apiKeyIds: deleteCredentials(ctx, API_KEYS, p.userId, p.apiKeyIds) };
    },
  }),
];
