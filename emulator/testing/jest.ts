/**
 * `turnkey-emulator/jest`: global setup and teardown for jest, which runs them in its main
 * process and cannot hand objects to test files: the setup starts one emulator and publishes
 * its connection in TURNKEY_* environment variables, which the test workers (started after it)
 * inherit; the teardown stops it.
 *
 *   // jest.config.js
 *   export default {
 *     globalSetup: "turnkey-emulator/jest/global-setup",
 *     globalTeardown: "turnkey-emulator/jest/global-teardown",
 *   };
 *
 *   // a test
 *   const { turnkeyEnv } = require("turnkey-emulator/jest");
 *   const { url, organizationId, apiPublicKey, apiPrivateKey } = turnkeyEnv();
 *
 * Only the TURNKEY_* names are set (connectionVariables' prefixedOnly): the JavaScript
 * examples' BASE_URL and ORGANIZATION_ID are too generic to overwrite in a project's own test
 * environment. The running instance is kept on globalThis for the teardown (jest loads the two
 * modules separately); jest runs the setup once per project, and the projects share the one
 * emulator, stopped by the last teardown.
 */
import type { EmulatorOptions, RunningEmulator } from "../index.js";
import { connectionFromEnv, connectionOf, connectionVariables, type TurnkeyEmulatorConnection } from "./connection.js";
import { startForTests } from "./start.js";

export type { TurnkeyEmulatorConnection } from "./connection.js";

type Shared = { users: number; emulator: Promise<RunningEmulator>; names: string[] };
const KEY = Symbol.for("turnkey-emulator/jest");
const shared = globalThis as { [KEY]?: Shared };

/** A jest global setup that starts an emulator with `options` (once, whatever the number of projects) and sets the TURNKEY_* variables. */
export function turnkeyEmulatorGlobalSetup(options: EmulatorOptions = {}): () => Promise<void> {
  return async function globalSetup() {
    let running = shared[KEY];
    if (!running) {
      const names: string[] = [];
      const emulator = startForTests(options).then((emu) => {
        for (const [name, value] of connectionVariables(connectionOf(emu.info), { prefixedOnly: true })) {
          process.env[name] = value;
          names.push(name);
        }
        return emu;
      });
      running = shared[KEY] = { users: 0, emulator, names };
    }
    running.users++;
    try {
      await running.emulator;
    } catch (err) {
      if (shared[KEY] === running) delete shared[KEY];
      throw err;
    }
  };
}

/** Starts the emulator (TURNKEY_EMULATOR_FIXTURES picks the fixture); what `turnkey-emulator/jest/global-setup` exports. */
export const globalSetup = turnkeyEmulatorGlobalSetup();

/** Stops the emulator once the last project that started it is done, and unsets the variables; what `turnkey-emulator/jest/global-teardown` exports. */
export async function globalTeardown(): Promise<void> {
  const running = shared[KEY];
  if (!running || --running.users > 0) return;
  delete shared[KEY];
  for (const name of running.names) delete process.env[name];
  await (await running.emulator).stop();
}

/** In a test: the connection the global setup published (throws, naming the variable, when it did not run). */
export function turnkeyEnv(env: Record<string, string | undefined> = process.env): TurnkeyEmulatorConnection {
  return connectionFromEnv(env);
}
