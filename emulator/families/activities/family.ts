/** The activities family: get_activity and list_activities, and the votes on an activity (approve/reject_activity, which the engine counts). */
import { defineFamily } from "../../core/family.js";
import { activityQueryOperations } from "./queries.js";
import { voteOperations } from "./votes.js";

export const activitiesFamily = defineFamily({
  name: "activities",
  operations: [...voteOperations, ...activityQueryOperations],
});
