/**
 * The values of `emulator start`'s flags for test suites (declared with the others in
 * cli-start-options.ts): what `startEmulator({ seed, clock, clockMode, coverageOut })` takes. A
 * bad value is an Error whose message names the flag.
 *
 *   --seed TEXT            every random value from TEXT (random.ts)
 *   --clock TIME           the emulated clock starts at TIME (ISO 8601 or ms since the epoch)
 *   --clock-mode MODE      frozen (default) or ticking from TIME
 *   --coverage-out FILE    the coverage report at exit (FILE, and its summary beside it)
 */
import { CLOCK_MODES, parseClockStart, type ClockMode } from "./core/clock.js";

export type SuiteFlags = { seed?: string; clock?: string; "clock-mode"?: string; "coverage-out"?: string };
export type SuiteOptions = { seed?: string; clock?: number; clockMode?: ClockMode; coverageOut?: string };

export function suiteOptionsFromFlags(flags: SuiteFlags): SuiteOptions {
  const options: SuiteOptions = {};
  if (flags.seed !== undefined) {
    if (flags.seed === "") throw new Error("--seed needs a text to seed from, e.g. --seed ci");
    options.seed = flags.seed;
  }
  if (flags.clock !== undefined) {
    try {
      options.clock = parseClockStart(flags.clock);
    } catch (e) {
      throw new Error(`--${(e as Error).message}`, { cause: e });
    }
  }
  const mode = flags["clock-mode"];
  if (mode !== undefined) {
    if (!(CLOCK_MODES as readonly string[]).includes(mode)) throw new Error(`--clock-mode must be one of ${CLOCK_MODES.join(", ")}, got ${mode}`);
    if (options.clock === undefined) throw new Error("--clock-mode needs --clock TIME, the time the clock starts at");
    options.clockMode = mode as ClockMode;
  }
  if (flags["coverage-out"] !== undefined) {
    if (flags["coverage-out"] === "") throw new Error("--coverage-out needs a file name, e.g. --coverage-out turnkey-coverage.json");
    options.coverageOut = flags["coverage-out"];
  }
  return options;
}
