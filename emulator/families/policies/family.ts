/** The policies family: policies, smart contract interfaces and MFA policies (the core decides with them: engine/). */
import { defineFamily } from "../../core/family.js";
import { policyOperations } from "../../activities/handlers/policies.js";
import { mfaPolicyOperations } from "../../activities/handlers/mfa-policies.js";
import { policyQueryOperations } from "../../queries/policies.js";
import { mfaPolicyQueryOperations } from "../../queries/mfa-policies.js";

export const policiesFamily = defineFamily({
  name: "policies",
  operations: [...policyOperations, ...mfaPolicyOperations, ...policyQueryOperations, ...mfaPolicyQueryOperations],
});
