/**
 * `turnkey-emulator/jest`: global setup and teardown for jest, which gives every test file an
 * emulator of its own, starting from the fixture.
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
 * Jest runs the global setup in its main process and cannot hand objects to test files. The
 * setup keeps an instance per worker there (pool.ts) and publishes where to lease one
 * (TURNKEY_EMULATOR_LEASE_URL) with the first instance's connection in TURNKEY_* variables,
 * which the workers (started after it) inherit. `turnkeyEnv()` leases the worker's instance
 * for its test file (the test path from jest's expect state), reset to the fixture on the
 * file's first call, and sets the TURNKEY_* variables to it too: a file sees only its own
 * state. It answers at once: from a worker through a short request to the main process
 * (lease.ts); with --runInBand straight from the pool, which then lives in the same process.
 * TURNKEY_EMULATOR_ISOLATE=0 keeps one instance shared by every file, as before.
 *
 * Only the TURNKEY_* names are set (connectionVariables' prefixedOnly): the JavaScript
 * examples' BASE_URL and ORGANIZATION_ID are too generic to overwrite in a project's own test
 * environment. The pool is kept on globalThis for the teardown (jest loads the two modules
 * separately); jest runs the setup once per project, and the projects share the one pool,
 * stopped by the last teardown.
 */
import { runInThisContext } from "node:vm";
import type { EmulatorOptions } from "../index.js";
import { connectionFromEnv, connectionOf, connectionVariables, type TurnkeyEmulatorConnection } from "./connection.js";
import { EmulatorPool } from "./pool.js";
import { leaseFromBrokerSync, startLeaseBroker, type LeaseBroker, type Leased } from "./lease.js";
import { isolatedFiles, testOptions } from "./start.js";

export type { TurnkeyEmulatorConnection } from "./connection.js";

/** The variable the global setup publishes the lease endpoint in (lease.ts). */
export const LEASE_VARIABLE = "TURNKEY_EMULATOR_LEASE_URL";

type Shared = { users: number; pool: EmulatorPool; started: Promise<{ broker?: LeaseBroker }>; names: string[] };
const KEY = Symbol.for("turnkey-emulator/jest");
const shared = globalThis as { [KEY]?: Shared };

/** What jest hands a global setup: its global configuration (the project's root among it). */
type JestGlobalConfig = { rootDir?: string } | undefined;

/** A jest global setup that starts the pool with `options` (once, whatever the number of projects) and sets the TURNKEY_* variables. */
export function turnkeyEmulatorGlobalSetup(options: EmulatorOptions = {}): (globalConfig?: JestGlobalConfig) => Promise<void> {
  return async function globalSetup(globalConfig) {
    let running = shared[KEY];
    if (!running) {
      const names: string[] = [];
      const root = globalConfig?.rootDir ?? process.cwd();
      const pool = new EmulatorPool(testOptions(options, root), root);
      const publish = (name: string, value: string) => {
        process.env[name] = value;
        names.push(name);
      };
      const started = (async () => {
        const first = await pool.instance("1");
        for (const [name, value] of connectionVariables(connectionOf(first.info), { prefixedOnly: true })) publish(name, value);
        if (!isolatedFiles()) return {};
        const broker = await startLeaseBroker(pool);
        publish(LEASE_VARIABLE, broker.url);
        return { broker };
      })();
      running = shared[KEY] = { users: 0, pool, started, names };
    }
    running.users++;
    try {
      await running.started;
    } catch (err) {
      if (shared[KEY] === running) delete shared[KEY];
      throw err;
    }
  };
}

/** Starts the pool (TURNKEY_EMULATOR_FIXTURES picks the fixture); what `turnkey-emulator/jest/global-setup` exports. */
export const globalSetup = turnkeyEmulatorGlobalSetup();

/** Stops the pool (writing the merged coverage when asked) once the last project that started it is done, and unsets the variables; what `turnkey-emulator/jest/global-teardown` exports. */
export async function globalTeardown(): Promise<void> {
  const running = shared[KEY];
  if (!running || --running.users > 0) return;
  delete shared[KEY];
  for (const name of running.names) delete process.env[name];
  const { broker } = await running.started.catch(() => ({ broker: undefined }));
  await broker?.close();
  await running.pool.stop();
}

/** The test file jest is running, from its expect state (undefined outside a test file). */
function testPath(): string | undefined {
  return (globalThis as { expect?: { getState?(): { testPath?: string } } }).expect?.getState?.().testPath;
}

/**
 * The pool when this test runs in the process that holds it (jest --runInBand): test files run
 * in their own realm, so it is looked up on the process's own global object.
 */
function poolInThisProcess(): EmulatorPool | undefined {
  return (runInThisContext("globalThis") as { [KEY]?: Shared })[KEY]?.pool;
}

const withoutInfo = ({ info: _info, ...connection }: Leased): TurnkeyEmulatorConnection => connection;

let leased: { file: string | undefined; connection: TurnkeyEmulatorConnection } | undefined;

/**
 * In a test: this file's connection (throws, naming the variable, when the global setup did not
 * run). The first call in a file leases the worker's instance reset to the fixture; later calls
 * in the same file give the same connection.
 */
export function turnkeyEnv(env: Record<string, string | undefined> = process.env): TurnkeyEmulatorConnection {
  const url = env[LEASE_VARIABLE];
  if (!url) return connectionFromEnv(env);
  const file = testPath();
  if (leased && (leased.file === file || file === undefined)) return leased.connection;
  let connection: TurnkeyEmulatorConnection;
  const pool = poolInThisProcess();
  if (pool) {
    // In band: this process holds the pool, and must not wait on itself. Its first instance runs since the global setup.
    const emu = pool.leaseStarted("1", file);
    if (!emu) throw new Error("turnkeyEnv: the emulator's global setup has not finished starting its instance");
    connection = connectionOf(emu.info);
  } else connection = withoutInfo(leaseFromBrokerSync(url, { slot: env.JEST_WORKER_ID ?? "1", file }));
  leased = { file, connection };
  if (env === process.env) for (const [name, value] of connectionVariables(connection, { prefixedOnly: true })) process.env[name] = value;
  return connection;
}
