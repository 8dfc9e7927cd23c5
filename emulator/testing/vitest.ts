/**
 * `turnkey-emulator/vitest`: a vitest global setup that gives every test file an emulator of its
 * own, starting from the fixture, and hands its connection to the file through provide/inject.
 *
 *   // vitest.config.ts
 *   export default defineConfig({ test: { globalSetup: ["turnkey-emulator/vitest"] } });
 *
 *   // a test
 *   import { inject } from "vitest";
 *   const { url, organizationId, apiPublicKey, apiPrivateKey } = inject("turnkey");
 *
 * Vitest runs global setups once per project, in the main process, before any worker starts.
 * This one keeps an instance per worker there (pool.ts) and adds a setup file to the project
 * (vitest-file.ts) that, before each test file, leases its worker's instance reset to the
 * fixture for that file (lease.ts) and puts its connection into what `inject("turnkey")`
 * answers. Files in parallel workers never share state; nothing in the tests coordinates.
 * TURNKEY_EMULATOR_ISOLATE=0 keeps one instance shared by every file, as before.
 *
 * Options: TURNKEY_EMULATOR_FIXTURES, TURNKEY_EMULATOR_SEED, TURNKEY_EMULATOR_CLOCK(_MODE) and
 * TURNKEY_EMULATOR_COVERAGE_OUT in the environment (start.ts), or a global setup file of your own
 * that exports `turnkeyEmulatorSetup({ ...startEmulator options })`. A turnkey-emulator.jsonc at
 * the project root is the fixture unless one is named.
 *
 * The value provided is plain JSON (vitest passes it to workers by structured clone); the
 * augmentation below types `inject("turnkey")` for every file that sees this module's types.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ProvidedContext } from "vitest";
import type { EmulatorInfo, EmulatorOptions } from "../index.js";
import { connectionOf, type TurnkeyEmulatorConnection } from "./connection.js";
import { EmulatorPool } from "./pool.js";
import { startLeaseBroker } from "./lease.js";
import { isolatedFiles, testOptions } from "./start.js";

export type { TurnkeyEmulatorConnection } from "./connection.js";

/** What `inject("turnkey")` gives: the connection, and everything GET /emulator/v1/info tells (chains, enclave keys, seeded organizations). */
export type TurnkeyEmulatorProvided = TurnkeyEmulatorConnection & { info: EmulatorInfo };

declare module "vitest" {
  export interface ProvidedContext {
    turnkey: TurnkeyEmulatorProvided;
    /** Where each test file's setup leases its instance (lease.ts); absent when files share one instance. */
    turnkeyLease?: string;
  }
}

/** The part of vitest's TestProject (vitest 3; GlobalSetupContext in vitest 2) a global setup uses. */
export type GlobalSetupProject = {
  provide<K extends keyof ProvidedContext & string>(key: K, value: ProvidedContext[K]): void;
  /** The project's resolved configuration: its root, and its setup files, to which the per-file lease is added. */
  config?: { root?: string; setupFiles?: string[] };
};

/** The setup file each test file runs first: vitest-file.ts beside this module (bundled as vitest-file.js beside vitest.js). */
function fileSetup(): string {
  const bundled = fileURLToPath(new URL("./vitest-file.js", import.meta.url));
  return existsSync(bundled) ? bundled : fileURLToPath(new URL("./vitest-file.ts", import.meta.url));
}

/** A global setup (vitest calls it with the project) that starts the emulators with `options`, provides "turnkey", and returns the teardown that stops them. */
export function turnkeyEmulatorSetup(options: EmulatorOptions = {}): (project: GlobalSetupProject) => Promise<() => Promise<void>> {
  return async function setup(project) {
    const root = project.config?.root ?? process.cwd();
    const pool = new EmulatorPool(testOptions(options, root), root);
    // The first worker's instance starts now: a bad fixture or option fails the run here, once.
    const first = await pool.instance("1");
    project.provide("turnkey", { ...connectionOf(first.info), info: first.info });
    const setupFiles = project.config?.setupFiles;
    if (!isolatedFiles() || !Array.isArray(setupFiles)) return () => pool.stop();
    const broker = await startLeaseBroker(pool);
    project.provide("turnkeyLease", broker.url);
    const file = fileSetup();
    if (!setupFiles.includes(file)) setupFiles.unshift(file);
    return async () => {
      await broker.close();
      await pool.stop();
    };
  };
}

export default turnkeyEmulatorSetup();
