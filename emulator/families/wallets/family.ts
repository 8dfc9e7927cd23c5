/**
 * The wallets family: wallets and their accounts, private keys, signing, export and import (and
 * the wallet kit's export and import frame pages), Spark. It tells the core which key a
 * `signWith` names and what policies see of the keys an activity touches.
 */
import { defineFamily } from "../../core/family.js";
import { walletOperations } from "./activities.js";
import { privateKeyOperations } from "./private-key-activities.js";
import { signingOperations } from "./signing.js";
import { exportImportOperations } from "./export-import.js";
import { sparkOperations } from "./spark.js";
import { walletQueryOperations } from "./queries.js";
import { resolveSigner } from "./signer.js";
import { walletKeywords } from "./policy-keywords.js";
import { Wallets } from "./wallets-repository.js";
import { PrivateKeys } from "./private-keys-repository.js";
import { ImportTargets } from "./import-targets.js";
import { framesRouter } from "./frame-routes.js";

export const walletsFamily = defineFamily({
  name: "wallets",
  operations: [...walletOperations, ...privateKeyOperations, ...signingOperations, ...exportImportOperations, ...sparkOperations, ...walletQueryOperations],
  repositories: (db) => ({ wallets: new Wallets(db), privateKeys: new PrivateKeys(db), importTargets: new ImportTargets(db) }),
  hooks: {
    resolveSigner,
    policyKeywords: walletKeywords,
  },
  routes: {
    pages: (rt) => framesRouter(rt), // pages the kit loads from the service's domains (the export frame)
  },
});
