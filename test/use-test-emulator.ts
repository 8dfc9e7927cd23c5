/**
 * One emulator for the enclosing suite (a test file, or the describe block it is called in).
 * Kept apart from test/support.ts because it registers vitest hooks, and support.ts is also
 * imported by scripts that run outside vitest (test/ui/measure-load.ts), where importing
 * "vitest" throws.
 */
import { afterAll, beforeAll } from "vitest";
import type { EmulatorOptions, RunningEmulator } from "../emulator/index.js";
import { startTestEmulator } from "./support.js";

/**
 * Registers a beforeAll that starts an emulator (startTestEmulator: port 0, responses
 * validated, then `options`) and an afterAll that stops it; gives a handle that reads through
 * to the running instance. Use the handle inside tests, or in hooks registered after this
 * call (vitest runs beforeAll hooks in the order they are registered, afterAll in reverse):
 * reading it while no instance runs throws, naming the property read.
 */
export function useTestEmulator(options: EmulatorOptions = {}): RunningEmulator {
  let running: RunningEmulator | undefined;
  const current = (property: string): RunningEmulator => {
    if (!running) throw new Error(`useTestEmulator: no emulator is running (read .${property} inside a test, or in a hook registered after useTestEmulator)`);
    return running;
  };
  beforeAll(async () => {
    running = await startTestEmulator(options);
  });
  afterAll(async () => {
    const r = running;
    running = undefined;
    await r?.stop();
  });
  return {
    get url() {
      return current("url").url;
    },
    get proxyUrl() {
      return current("proxyUrl").proxyUrl;
    },
    get info() {
      return current("info").info;
    },
    get runtime() {
      return current("runtime").runtime;
    },
    get fixtureFile() {
      return current("fixtureFile").fixtureFile;
    },
    reset: () => current("reset").reset(),
    stop: async () => {
      const r = current("stop");
      running = undefined;
      await r.stop();
    },
  };
}
