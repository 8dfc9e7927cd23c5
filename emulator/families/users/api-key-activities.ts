/** API keys: create_api_keys (V2; V1's keys are P-256) and delete_api_keys, over the domain's credentials (credentials.ts). */
import { API_KEYS, addCredentials, deleteCredentials } from "./credentials.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";
import { asP256Keys } from "../../core/vocabulary/older-intents.js";

export const apiKeyOperations = [
  defineActivity("create_api_keys", {
    policy: { resource: "CREDENTIAL", action: "CREATE", source: "documented", params: [["user_id", "userId"]] },
    arrayLimits: { apiKeys: ALLOWANCE.credentialsPerUser },
    authorization: "own-credential",
    olderVersions: {
      ACTIVITY_TYPE_CREATE_API_KEYS: { params: (p) => ({ userId: p.userId, apiKeys: asP256Keys(p.apiKeys) }) },
    },
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
