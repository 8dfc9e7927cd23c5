/** The policies family: policies, smart contract interfaces and MFA policies (the core decides with them: engine/). */
import { defineFamily } from "../../core/family.js";
import { policyOperations } from "./activities.js";
import { mfaPolicyOperations } from "./mfa-activities.js";
import { policyQueryOperations } from "./queries.js";
import { mfaPolicyQueryOperations } from "./mfa-queries.js";

export const policiesFamily = defineFamily({
  name: "policies",
  operations: [...policyOperations, ...mfaPolicyOperations, ...policyQueryOperations, ...mfaPolicyQueryOperations],
});
