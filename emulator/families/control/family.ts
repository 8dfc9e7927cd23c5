/**
 * The control family: the emulator's own API under /emulator/v1/ (clock, snapshots and state
 * files, faults, the rate limit, the request log, what the web UI reads and votes with),
 * /openapi.json, and the web UI's pages.
 */
import { defineFamily } from "../../core/family.js";
import { controlState, type ControlOptions, type ControlState } from "./state.js";
import { controlMiddleware, exportStateFile, fixtureDevKeys, loadStateFile, requestLogMiddleware, resetControl } from "./api.js";
import { adminRouter } from "./routes.js";
import { uiRouter } from "./ui-routes.js";

declare module "../../core/runtime.js" {
  interface FamilyStates {
    /** Faults, rate-limit windows, the request log, snapshots and the fixture's key pairs (control/state.ts). */
    control: ControlState;
  }
}

export const controlFamily = defineFamily<ControlOptions>({
  name: "control",
  start(rt, { options, fixture }) {
    rt.families.control = controlState(options, fixtureDevKeys(fixture)); // the fixture's published key pairs: the control API can vote as their users
    if (options.state) loadStateFile(rt, options.state);
  },
  reset: resetControl, // faults and rate-limit windows; snapshots and the request log stay
  stop(rt) {
    const file = rt.families.control.exportOnExit;
    if (file) exportStateFile(rt.store, file);
  },
  routes: {
    pages: () => uiRouter(), // the web UI at /emulator/ui/: static files, served before anything else looks at the request
    log: (rt) => requestLogMiddleware(rt), // every request of the service, preflights included
    guard: (rt) => controlMiddleware(rt), // injected faults, optional rate limit
    control: (rt, instance) => adminRouter(rt, instance),
  },
});
