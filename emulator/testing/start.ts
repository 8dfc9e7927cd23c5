/**
 * Starts the emulator for a test run's global setup (vitest or jest): on a free port, with the
 * fixture TURNKEY_EMULATOR_FIXTURES names (a file, or a fixture of the package such as
 * `embedded-wallet-app`) unless `options` names one.
 *
 * The emulator is imported on the first start only. In the built package this file is bundled
 * into the helpers (scripts/bundle.ts), and `../index.js` is the package's own bundled entry
 * beside them: the helpers stay a few kilobytes and load the one copy of the emulator.
 */
import type { EmulatorOptions, RunningEmulator } from "../index.js";

export async function startForTests(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { startEmulator } = await import("../index.js");
  const fixtures = process.env.TURNKEY_EMULATOR_FIXTURES;
  return startEmulator({ port: 0, ...(fixtures ? { fixtures } : {}), ...options });
}
