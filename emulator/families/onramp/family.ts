/** The fiat on-ramp family: on-ramp credentials, init_fiat_on_ramp's signed checkout URL, the checkout page that settles on the local chains, and the transaction status. */
import { defineFamily } from "../../core/family.js";
import { fiatOnRampOperations } from "./activities.js";
import { fiatOnRampQueryOperations } from "./queries.js";
import { FiatOnRampCredentials, OnRampTransactions } from "./repository.js";
import { onRampRouter } from "./routes.js";
import { onRampEncryptionPublicKey } from "./secrets.js";

export const onRampFamily = defineFamily({
  name: "onramp",
  operations: [...fiatOnRampOperations, ...fiatOnRampQueryOperations],
  repositories: (db) => ({ fiatOnRampCredentials: new FiatOnRampCredentials(db), onRampTransactions: new OnRampTransactions(db) }),
  routes: {
    control: (rt) => onRampRouter(rt),
  },
  // The on-ramp credentials' encryption key stand-in: pass it to @turnkey/crypto's encryptOnRampSecret.
  info: (rt) => ({ onRampEncryptionPublicKey: onRampEncryptionPublicKey(rt.keys.onRamp) }),
});
