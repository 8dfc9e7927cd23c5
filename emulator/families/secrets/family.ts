/** The secrets family: import, export and deletion of secrets, list_secrets, and the `secret` keyword of the policy language. */
import { defineFamily } from "../../core/family.js";
import { secretOperations } from "./activities.js";
import { secretQueryOperations } from "./queries.js";
import { Secrets } from "./repository.js";

export const secretsFamily = defineFamily({
  name: "secrets",
  operations: [...secretOperations, ...secretQueryOperations],
  repositories: (db) => ({ secrets: new Secrets(db) }),
  hooks: {
    // The secret an activity reads: {id, name, static_properties}.
    policyKeywords(rt, { org, subjects }) {
      const s = subjects.secretId ? rt.store.secrets.get(org.id, subjects.secretId) : undefined;
      if (!s) return {};
      return { secret: { id: s.id, ...(s.name !== null ? { name: s.name } : {}), static_properties: Object.fromEntries(s.staticProperties.map((kv) => [kv.key, kv.value])) } };
    },
  },
});
