/** Passkeys: create_authenticators (V2) and delete_authenticators, over the domain's credentials (domain/credentials.ts). */
import { AUTHENTICATORS, addCredentials, deleteCredentials } from "../../domain/credentials.js";
import { defineActivity } from "../../operations/define.js";

export const authenticatorOperations = [
  defineActivity("create_authenticators", {
    authorization: "own-credential",
    run(ctx, p) {
      return { authenticatorIds: addCredentials(ctx, AUTHENTICATORS, p.userId, p.authenticators) };
    },
  }),

  defineActivity("delete_authenticators", {
    authorization: "own-credential",
    run(ctx, p) {
      return { authenticatorIds: deleteCredentials(ctx, AUTHENTICATORS, p.userId, p.authenticatorIds) };
    },
  }),
];
