/** The TVC family: TVC apps, deployments, manifests and their approvals, operators and operator sets, quorum keys and their shares. */
import { defineFamily } from "../../core/family.js";
import { tvcOperations } from "../../activities/handlers/tvc.js";
import { tvcQuorumKeyOperations } from "../../activities/handlers/tvc-quorum-keys.js";
import { tvcQueryOperations } from "../../queries/tvc.js";
import { Tvc } from "../../store/tvc.js";

export const tvcFamily = defineFamily({
  name: "tvc",
  operations: [...tvcOperations, ...tvcQuorumKeyOperations, ...tvcQueryOperations],
  repositories: (db) => ({ tvc: new Tvc(db) }),
});
