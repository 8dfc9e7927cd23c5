/**
 * The wallets family: wallets and their accounts, private keys, signing, export and import (and
 * the wallet kit's export and import frame pages), Spark. It tells the core which key a
 * `signWith` names and what policies see of the keys an activity touches.
 */
import { defineFamily } from "../../core/family.js";
import { walletOperations } from "../../activities/handlers/wallets.js";
import { privateKeyOperations } from "../../activities/handlers/private-keys.js";
import { signingOperations } from "../../activities/handlers/signing.js";
import { exportImportOperations } from "../../activities/handlers/export-import.js";
import { sparkOperations } from "../../activities/handlers/spark.js";
import { walletQueryOperations } from "../../queries/wallets.js";
import { resolveSigner } from "../../domain/signer.js";
import { walletKeywords } from "../../domain/wallet-keywords.js";
import { Wallets } from "../../store/wallets.js";
import { PrivateKeys } from "../../store/private-keys.js";
import { ImportTargets } from "../../store/import-targets.js";
import { framesRouter } from "../../frames/routes.js";

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
