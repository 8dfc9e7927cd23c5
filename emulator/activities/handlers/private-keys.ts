/** Non-HD private keys: create_private_keys (V2) and delete_private_keys, over domain/private-keys.ts. */
import { createPrivateKeys, deletePrivateKeys } from "../../domain/private-keys.js";
import { defineActivity } from "../../operations/define.js";

export const privateKeyOperations = [
  defineActivity("create_private_keys", {
    run(ctx, p) {
      const rows = createPrivateKeys(ctx, p.privateKeys);
      return { privateKeys: rows.map((r) => ({ privateKeyId: r.id, addresses: r.addresses })) };
    },
  }),

  defineActivity("delete_private_keys", {
    run(ctx, p) {
      return { privateKeyIds: deletePrivateKeys(ctx, p.privateKeyIds, p.deleteWithoutExport) };
    },
  }),
];
