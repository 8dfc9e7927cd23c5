/**
 * The coverage family: what a run called and how each call ended, and each policy's outcomes
 * (recorder.ts), reported at GET /emulator/v1/coverage (http.ts) and written at stop with
 * `--coverage-out` (files.ts). docs/test-suites.md describes it. The counts outlive a reset.
 */
import { defineFamily } from "../../core/family.js";
import { CoverageRecorder, countEvaluations } from "./recorder.js";
import { coverageMiddleware, coverageRouter, reportOf } from "./http.js";
import { writeCoverageFiles, type CoverageOptions } from "./files.js";

declare module "../../core/runtime.js" {
  interface FamilyStates {
    coverage: {
      recorder: CoverageRecorder;
      /** Where the report is written at stop (`--coverage-out`), if anywhere. */
      out?: string;
      /** Stops counting the events' policy evaluations. */
      off(): void;
    };
  }
}

export const coverageFamily = defineFamily<CoverageOptions>({
  name: "coverage",
  start(rt, { options }) {
    const recorder = new CoverageRecorder();
    rt.families.coverage = { recorder, out: options.coverageOut, off: countEvaluations(rt.events, recorder) };
  },
  clearing(rt) {
    rt.families.coverage.recorder.learnNames(rt.store); // the policies counted so far keep their names once the store is cleared
  },
  stop(rt) {
    const { out, off } = rt.families.coverage;
    off();
    if (out) writeCoverageFiles(reportOf(rt), out);
  },
  routes: {
    log: (rt) => coverageMiddleware(rt), // each call of a published operation and how it ended, whatever answered it
    control: (rt) => coverageRouter(rt), // GET/DELETE /emulator/v1/coverage
  },
});
