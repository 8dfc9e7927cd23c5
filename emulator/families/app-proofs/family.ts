/**
 * The app-proofs family: an activity submitted with `generateAppProofs` gets, once it
 * completes, one signed proof per address it derived (its entry's `appProofs`); the activity's
 * wire form and list_app_proofs give them back. get_boot_proof answers 501.
 */
import { defineFamily } from "../../core/family.js";
import type { EphemeralKeys } from "../../bundles/index.js";
import { appProofsOf, asksForAppProofs, ephemeralKeysFor, recordAppProofs } from "./proofs.js";
import { appProofQueryOperations } from "./queries.js";
import { AppProofs } from "./repository.js";

declare module "../../core/runtime.js" {
  interface FamilyStates {
    appProofs: {
      /** The instance's ephemeral keys that sign the proofs (derived from its enclave signer key). */
      keys: EphemeralKeys;
    };
  }
}

export const appProofsFamily = defineFamily({
  name: "app-proofs",
  operations: appProofQueryOperations,
  repositories: (db) => ({ appProofs: new AppProofs(db) }),
  start(rt) {
    rt.families.appProofs = { keys: ephemeralKeysFor(rt.keys) };
  },
  hooks: {
    activityCompleted: recordAppProofs, // an activity that asked with generateAppProofs gets its proofs as it completes
    asksAppProofs: asksForAppProofs,
    // Proofs are recorded only for an activity that asked for them.
    activityView(rt, a) {
      const appProofs = a.asksAppProofs ? appProofsOf(rt, a.id) : [];
      return appProofs.length ? { appProofs } : {};
    },
  },
});
