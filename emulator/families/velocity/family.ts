/** The velocity-controls family: velocity controls, what each completed activity contributes to them, and the `controls` keyword policies read. */
import { defineFamily } from "../../core/family.js";
import { velocityControlOperations } from "./operations.js";
import { controlsContext, recordContributions } from "./enforce.js";
import { VelocityControls } from "./repository.js";

export const velocityFamily = defineFamily({
  name: "velocity",
  operations: velocityControlOperations,
  repositories: (db) => ({ velocityControls: new VelocityControls(db) }),
  hooks: {
    activityCompleted: recordContributions, // a completed activity's contribution to each velocity control, for later windows
    policyKeywords(rt, { org, activityType, params, subjects, votes, now }) {
      const proposer = votes[0]?.userId;
      return proposer ? { controls: controlsContext(rt, org.id, activityType, params, subjects, proposer, now) } : {};
    },
  },
});
