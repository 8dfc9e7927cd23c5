/**
 * Starts the emulator for a test run's global setup (vitest or jest): on a free port, with the
 * options `testOptions` reads (the fixture TURNKEY_EMULATOR_FIXTURES names, a file or a fixture of
 * the package such as `embedded-wallet-app`, unless `options` names one).
 *
 * The emulator is imported on the first start only. In the built package this file is bundled
 * into the helpers (scripts/bundle.ts), and `../index.js` is the package's own bundled entry
 * beside them: the helpers stay a few kilobytes and load the one copy of the emulator.
 */
import { resolve } from "node:path";
import type { EmulatorOptions, RunningEmulator } from "../index.js";

export async function startForTests(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { startEmulator } = await import("../index.js");
  return startEmulator({ port: 0, ...options });
}

/**
 * The options a test run starts its emulators with: those given, over the environment's
 * TURNKEY_EMULATOR_FIXTURES, TURNKEY_EMULATOR_SEED, TURNKEY_EMULATOR_CLOCK,
 * TURNKEY_EMULATOR_CLOCK_MODE and TURNKEY_EMULATOR_COVERAGE_OUT (a relative file is the project
 * root's); without a fixture, the project's turnkey-emulator.jsonc at `root` when there is one.
 */
export function testOptions(options: EmulatorOptions, root: string, env: NodeJS.ProcessEnv = process.env): EmulatorOptions {
  const fromEnv: EmulatorOptions = {};
  if (env.TURNKEY_EMULATOR_FIXTURES) fromEnv.fixtures = env.TURNKEY_EMULATOR_FIXTURES;
  if (env.TURNKEY_EMULATOR_SEED) fromEnv.seed = env.TURNKEY_EMULATOR_SEED;
  if (env.TURNKEY_EMULATOR_CLOCK) fromEnv.clock = env.TURNKEY_EMULATOR_CLOCK;
  if (env.TURNKEY_EMULATOR_CLOCK_MODE) fromEnv.clockMode = env.TURNKEY_EMULATOR_CLOCK_MODE as EmulatorOptions["clockMode"];
  if (env.TURNKEY_EMULATOR_COVERAGE_OUT) fromEnv.coverageOut = env.TURNKEY_EMULATOR_COVERAGE_OUT;
  const merged = { ...fromEnv, ...options };
  if (merged.coverageOut) merged.coverageOut = resolve(root, merged.coverageOut);
  if (merged.fixtures === undefined) merged.projectRoot = root;
  return merged;
}

/** Whether each test file gets an instance of its own (the default), or all share one (TURNKEY_EMULATOR_ISOLATE=0). */
export const isolatedFiles = (env: NodeJS.ProcessEnv = process.env): boolean => env.TURNKEY_EMULATOR_ISOLATE !== "0";
