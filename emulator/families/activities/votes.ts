/**
 * approve_activity / reject_activity: votes on another activity, named by its fingerprint.
 * The engine counts them (core/engine/engine.ts `vote`); these entries declare them to the registry.
 */
import { defineActivity } from "../../core/vocabulary/define.js";

const countedByEngine = (): never => {
  throw new Error("votes are counted by the activity engine, not run as handlers");
};

export const voteOperations = [
  defineActivity("approve_activity", { authorization: "vote", run: countedByEngine }),
  defineActivity("reject_activity", { authorization: "vote", run: countedByEngine }),
];
