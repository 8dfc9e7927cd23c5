/**
 * `turnkey-emulator/vitest`: a vitest global setup that starts one emulator for the run and
 * hands its connection to every test file through vitest's provide/inject.
 *
 *   // vitest.config.ts
 *   export default defineConfig({ test: { globalSetup: ["turnkey-emulator/vitest"] } });
 *
 *   // a test
 *   import { inject } from "vitest";
 *   const { url, organizationId, apiPublicKey, apiPrivateKey } = inject("turnkey");
 *
 * Options: TURNKEY_EMULATOR_FIXTURES in the environment, or a global setup file of your own
 * that exports `turnkeyEmulatorSetup({ ...startEmulator options })`.
 *
 * Vitest runs global setups once per project, in the main process, before any worker starts:
 * each project gets its own emulator, shared by all its files and workers (state included, so
 * tests create what they need rather than count what is there). The value provided is plain
 * JSON (vitest passes it to workers by structured clone); the augmentation below types
 * `inject("turnkey")` for every file that sees this module's types.
 */
import type { ProvidedContext } from "vitest";
import type { EmulatorInfo, EmulatorOptions } from "../index.js";
import { connectionOf, type TurnkeyEmulatorConnection } from "./connection.js";
import { startForTests } from "./start.js";

export type { TurnkeyEmulatorConnection } from "./connection.js";

/** What `inject("turnkey")` gives: the connection, and everything GET /emulator/v1/info tells (chains, enclave keys, seeded organizations). */
export type TurnkeyEmulatorProvided = TurnkeyEmulatorConnection & { info: EmulatorInfo };

declare module "vitest" {
  export interface ProvidedContext {
    turnkey: TurnkeyEmulatorProvided;
  }
}

/** The part of vitest's TestProject (vitest 3; GlobalSetupContext in vitest 2) a global setup uses. */
export type GlobalSetupProject = { provide<K extends keyof ProvidedContext & string>(key: K, value: ProvidedContext[K]): void };

/** A global setup (vitest calls it with the project) that starts an emulator with `options`, provides "turnkey", and returns the teardown that stops it. */
export function turnkeyEmulatorSetup(options: EmulatorOptions = {}): (project: GlobalSetupProject) => Promise<() => Promise<void>> {
  return async function setup(project) {
    const emu = await startForTests(options);
    project.provide("turnkey", { ...connectionOf(emu.info), info: emu.info });
    return () => emu.stop();
  };
}

export default turnkeyEmulatorSetup();
