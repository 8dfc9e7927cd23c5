/**
 * Subscribes the velocity-control recorder to the instance's activity updates: a completed
 * activity's contribution to each control is written in the activity's own transaction, so a
 * rolled-back activity counts for nothing (velocity/enforce.ts).
 */
import type { Runtime } from "../../core/runtime.js";
import { recordContributions } from "./enforce.js";

export function startVelocityControls(rt: Runtime): () => void {
  return rt.events.on((e) => {
    if (e.type !== "ACTIVITY_UPDATES") return;
    recordContributions(rt, e.activity, (type, params) => rt.registry.operationForActivityType(type)?.entry.subjects(params));
  });
}
