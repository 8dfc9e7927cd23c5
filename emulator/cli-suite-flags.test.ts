import { describe, expect, it } from "vitest";
import { suiteOptionsFromFlags } from "./cli-suite-flags.js";

describe("emulator start's suite flags", () => {
  it("give startEmulator's seed, clock, clock mode and coverage file", () => {
    expect(suiteOptionsFromFlags({})).toEqual({});
    expect(suiteOptionsFromFlags({ seed: "ci", clock: "2030-01-01T00:00:00Z", "clock-mode": "ticking", "coverage-out": "cov.json" })).toEqual({
      seed: "ci",
      clock: Date.UTC(2030, 0, 1),
      clockMode: "ticking",
      coverageOut: "cov.json",
    });
  });

  it("refuse a bad value naming the flag", () => {
    expect(() => suiteOptionsFromFlags({ seed: "" })).toThrow(/^--seed needs a text/);
    expect(() => suiteOptionsFromFlags({ clock: "soon" })).toThrow(/^--clock must be an ISO 8601 instant/);
    expect(() => suiteOptionsFromFlags({ clock: "2030-01-01", "clock-mode": "paused" })).toThrow(/^--clock-mode must be one of frozen, ticking, got paused/);
    expect(() => suiteOptionsFromFlags({ "clock-mode": "frozen" })).toThrow(/^--clock-mode needs --clock TIME/);
    expect(() => suiteOptionsFromFlags({ "coverage-out": "" })).toThrow(/^--coverage-out needs a file name/);
  });
});
