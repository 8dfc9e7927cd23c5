/**
 * Programmatic API:
 *
 *   const emu = await startEmulator({ port: 0 });
 *   // emu.url, emu.proxyUrl, emu.info.organizationId, emu.info.apiPrivateKey ...
 *   await emu.stop();
 *
 * Each call makes an independent instance (own store, clock, server), so several can run
 * side by side in one process.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { systemClock, parseClockStart, startedClock, type ClockMode } from "./core/clock.js";
import { Keyring } from "./core/keyring.js";
import type { Runtime, FamilyStates } from "./core/runtime.js";
import type { Family } from "./core/family.js";
import { families as FAMILIES, hooks, openStore, registry } from "./families.js";
import { createApp, serviceCors } from "./core/http/app.js";
import { corsHeaders } from "./core/http/cors.js";
import { fixtureInfo, loadFixture, organizationsInfo, parseFixture, seedFixture, type Fixture, type SeededOrganization, DEFAULT_FIXTURE_PATH, findProjectFixture, resolveFixturePath } from "./fixtures.js";
import { instanceKeysFor, instancePublicKeys } from "./core/auth/instance-keys.js";
import { oidcIssuerUrl } from "./core/auth/oidc-tokens.js";
import type { ChainListing, ChainsOptions } from "./families/chains/index.js";
import { EventBus } from "./core/events.js";
import { ActivityTurns } from "./core/engine/turns.js";
import { othersInFlight, Serving } from "./core/http/serving.js";
import type { ControlOptions } from "./families/control/index.js";
import type { IpAllowlistOptions } from "./families/ip-allowlist/index.js";
import type { WebhooksOptions } from "./families/webhooks/index.js";
import { answerClientErrors } from "./core/http/client-errors.js";
import { createRandom } from "./core/random.js";
import type { CoverageOptions } from "./families/coverage/index.js";

/** What startEmulator takes: the instance's own settings, and each family's (`--log`, `--chain`, `--trust-proxy`, ...). */
export type EmulatorOptions = ControlOptions & ChainsOptions & IpAllowlistOptions & WebhooksOptions & CoverageOptions & {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** SQLite file; default `:memory:`. A file keeps state across restarts. */
  db?: string;
  /** Fixture file path or object; default: the project's turnkey-emulator.jsonc when there is one (fixtures/project-file.ts), else fixtures/default.json. */
  fixtures?: string | Fixture;
  /** Where the project's turnkey-emulator.jsonc is looked for when `fixtures` is not given (default: the working directory, then its parents up to the one with a package.json). */
  projectRoot?: string;
  /** Check every response against the contract (default: off, on when EMULATOR_VALIDATE_RESPONSES=1); tests turn it on. */
  validateResponses?: boolean;
  /**
   * Host names the control API, UI and frames answer besides loopback names and IP addresses
   * (`--allow-host`, e.g. a compose service's name); `.example.test` allows its subdomains too.
   */
  allowHosts?: string[];
  /**
   * Draw every random value (ids, mnemonics, keys, OTP codes, the enclave's ephemeral keys, ...) from
   * this seed (`--seed`): the same requests in the same order get the same answers (core/random.ts).
   */
  seed?: string;
  /** Start the emulated clock at this instant (`--clock`): an ISO 8601 instant or milliseconds since the epoch; the fixture's records are dated then. */
  clock?: string | number;
  /** How a clock started with `clock` moves (`--clock-mode`): "frozen" (the default: stays until moved through the control API) or "ticking". */
  clockMode?: ClockMode;
};

export type EmulatorInfo = {
  baseUrl: string;
  authProxyUrl: string;
  organizationId: string;
  organizationName: string;
  rootUserId: string;
  apiPublicKey: string | null;
  apiPrivateKey: string | null;
  /** The seeded HD wallet (mnemonic `test test ... junk` in the default fixture). */
  walletId: string | null;
  /** Enclave stand-in keys (uncompressed hex) for the SDKs' dangerouslyOverride… parameters. */
  signerPublicKey: string;
  tlsFetcherPublicKey: string;
  notarizerPublicKey: string;
  /** The on-ramp credentials encryption key stand-in (compressed hex): pass it to @turnkey/crypto's encryptOnRampSecret. */
  onRampEncryptionPublicKey: string;
  /** The built-in OIDC issuer (`iss` of its id_tokens). */
  oidcIssuer: string;
  /** The seeded auth-proxy configuration (the `X-Auth-Proxy-Config-ID` for `proxyUrl`), if the fixture has one. */
  authProxyConfigId: string | null;
  /** Every chain with its JSON-RPC URL (local chains start on first use). */
  chains: ChainListing[];
  /** Every seeded top-level organization (the main one first) with its URLs, proxy config, users' contacts and sub-organizations. */
  organizations: SeededOrganization[];
};

export type RunningEmulator = {
  url: string;
  proxyUrl: string;
  info: EmulatorInfo;
  /** The fixture file it seeds (the project's turnkey-emulator.jsonc, a named one or the package's default), or undefined for a fixture object. */
  fixtureFile: string | undefined;
  runtime: Runtime;
  /** Back to the fixture: the store seeded again, the clock and (with a seed) the random values started over; `seed` replaces the seed from here on. */
  reset(options?: { seed?: string }): void;
  stop(): Promise<void>;
};

/** The families, reading their parts of the options. */
const families = FAMILIES as readonly Family<EmulatorOptions>[];

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const fixtureFile = typeof options.fixtures === "object" ? undefined : (options.fixtures ?? findProjectFixture(options.projectRoot));
  const fixture = typeof options.fixtures === "object" ? parseFixture(options.fixtures) : loadFixture(fixtureFile);
  const store = openStore(options.db ?? ":memory:");
  const rt: Runtime = {
    registry,
    hooks,
    store,
    keyring: new Keyring(store.sealer),
    clock: options.clock === undefined ? systemClock() : startedClock(parseClockStart(options.clock), options.clockMode ?? "frozen"),
    random: createRandom(options.seed),
    validateResponses: options.validateResponses ?? process.env.EMULATOR_VALIDATE_RESPONSES === "1",
    urls: { baseUrl: "", authProxyUrl: "" },
    keys: instanceKeysFor(fixture.organization.organizationId),
    events: new EventBus(),
    activityTurns: new ActivityTurns(),
    // With other requests open on the server, a handler's signature is made off the event loop (the activity settles after it).
    offload: (here, onWorker) => (othersInFlight(rt.serving) ? onWorker() : here()),
    families: {} as FamilyStates, // each family sets its own member as it starts
  };
  for (const f of families) f.start?.(rt, { options, fixture });
  if (!rt.store.organizations.get(fixture.organization.organizationId)) seedFixture(rt, fixture, rt.clock.now());

  const info = (): EmulatorInfo =>
    ({
      baseUrl: rt.urls.baseUrl,
      authProxyUrl: rt.urls.authProxyUrl,
      ...fixtureInfo(fixture),
      ...instancePublicKeys(rt.keys),
      oidcIssuer: oidcIssuerUrl(rt),
      ...Object.assign({}, ...families.map((f) => f.info?.(rt))),
      organizations: organizationsInfo(fixture, rt.urls),
    }) as EmulatorInfo;
  const reset = (again: { seed?: string } = {}) => {
    for (const f of families) f.clearing?.(rt);
    rt.store.clear();
    rt.keyring.clear();
    rt.clock.restart();
    rt.random.restart(again.seed);
    for (const f of families) f.reset?.(rt);
    seedFixture(rt, fixture, rt.clock.now());
  };
  const app = createApp(rt, families, { info, reset }, { host, allowHosts: options.allowHosts });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, host, () => resolve(s));
    s.once("error", reject);
  });
  // Idle keep-alive connections stay open longer than a client's own idle limit (undici: the server's hint less 1 s):
  // a test worker whose event loop is busy loading modules between files must not write onto a socket the server closed.
  server.keepAliveTimeout = 55_000; // below Node's headersTimeout (60 s)
  // Headers over Node's limit answer the JSON error shape, with the CORS of the request's surface.
  const corsOf = serviceCors(rt);
  answerClientErrors(server, (head) => {
    const policy = corsOf(head);
    return policy ? corsHeaders(policy, head) : {};
  });
  rt.serving = new Serving();
  rt.serving.track(server);
  for (const f of families) f.listening?.(rt, server);
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  rt.urls.baseUrl = `http://${urlHost}:${port}`;
  // The auth proxy's routes (/v1/...) live beside the coordinator's on the same port.
  rt.urls.authProxyUrl = rt.urls.baseUrl;

  let stopped = false;
  return {
    url: rt.urls.baseUrl,
    proxyUrl: rt.urls.authProxyUrl,
    info: info(),
    fixtureFile: typeof options.fixtures === "object" ? undefined : resolveFixturePath(fixtureFile ?? DEFAULT_FIXTURE_PATH),
    runtime: rt,
    reset,
    async stop() {
      if (stopped) return;
      stopped = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const f of [...families].reverse()) await f.stop?.(rt);
      rt.store.close();
      rt.keyring.clear(); // its seeds, HD nodes and account keys hold private keys
    },
  };
}

export { loadFixture, FixtureError, type Fixture } from "./fixtures.js";
