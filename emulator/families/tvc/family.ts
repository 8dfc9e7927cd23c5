/** The TVC family: TVC apps, deployments, manifests and their approvals, operators and operator sets, quorum keys and their shares. */
import { defineFamily } from "../../core/family.js";
import { tvcOperations } from "./activities.js";
import { tvcQuorumKeyOperations } from "./quorum-key-activities.js";
import { tvcQueryOperations } from "./queries.js";
import { Tvc } from "./repository.js";

export const tvcFamily = defineFamily({
  name: "tvc",
  operations: [...tvcOperations, ...tvcQuorumKeyOperations, ...tvcQueryOperations],
  repositories: (db) => ({ tvc: new Tvc(db) }),
});
