/** Non-HD private keys: create_private_keys (V2; V1 answers the ids only) and delete_private_keys, over private-keys.ts. */
import { createPrivateKeys, deletePrivateKeys } from "./private-keys.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const privateKeyOperations = [
  defineActivity("create_private_keys", {
    policy: { resource: "PRIVATE_KEY", action: "CREATE", source: "documented" },
    arrayLimits: { privateKeys: ALLOWANCE.privateKeysPerOrganization },
    olderVersions: {
      // The same intent; its result member (createPrivateKeysResult) lists the ids without addresses.
      ACTIVITY_TYPE_CREATE_PRIVATE_KEYS: { params: (p) => p, result: (r) => ({ privateKeyIds: r.privateKeys.map((k) => k.privateKeyId!) }) },
    },
    run(ctx, p) {
      const rows = createPrivateKeys(ctx, p.privateKeys);
      return { privateKeys: rows.map((r) => ({ privateKeyId: r.id, addresses: r.addresses })) };
    },
  }),

  defineActivity("delete_private_keys", {
    policy: { resource: "PRIVATE_KEY", action: "DELETE", source: "documented" },
    run(ctx, p) {
      return { privateKeyIds: deletePrivateKeys(ctx, p.privateKeyIds, p.deleteWithoutExport) };
    },
  }),
];
