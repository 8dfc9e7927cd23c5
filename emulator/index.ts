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
import { Store } from "./store/index.js";
import { parseClockStart, startedClock, systemClock, type ClockMode } from "./clock.js";
import { createRandom } from "./random.js";
import { Keyring } from "./keyring.js";
import type { Runtime } from "./runtime.js";
import { registry } from "./operations/registry.js";
import { createApp, serviceCors } from "./app.js";
import { corsHeaders } from "./http/cors.js";
import { DEFAULT_FIXTURE_PATH, findProjectFixture, fixtureInfo, loadFixture, organizationsInfo, parseFixture, resolveFixturePath, seedFixture, type Fixture, type SeededOrganization } from "./fixtures.js";
import { instanceKeysFor, instancePublicKeys } from "./auth/instance-keys.js";
import { oidcIssuerUrl } from "./auth/oidc-tokens.js";
import { onRampEncryptionPublicKey } from "./onramp/secrets.js";
import { Networks, type ChainListing } from "./networks/registry.js";
import { fixtureFundedAccounts } from "./networks/fixture-accounts.js";
import { EventBus } from "./events/index.js";
import { ActivityTurns } from "./activities/turns.js";
import { othersInFlight, Serving } from "./http/serving.js";
import { startWebhooks, type WebhookOptions } from "./webhooks/index.js";
import { startAppProofs } from "./proofs/app-proofs.js";
import { startVelocityControls } from "./velocity/record.js";
import { controlState, exportStateFile, fixtureDevKeys, loadStateFile, resetControl, SnapshotShelf, type ControlOptions } from "./control/index.js";
import { answerClientErrors } from "./http/client-errors.js";
import { CoverageRecorder, countEvaluations } from "./coverage/recorder.js";
import { reportOf } from "./coverage/http.js";
import { writeCoverageFiles } from "./coverage/files.js";

export type EmulatorOptions = ControlOptions & {
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
  /** caip2 -> RPC URL of an external node that serves that chain instead of the embedded one (`--chain`). */
  chains?: Record<string, string>;
  /** Load this state file (what GET /emulator/v1/state returns) at start (`--state`). */
  state?: string;
  /** Write the state to this file when the emulator stops (`--export-on-exit`). */
  exportOnExit?: string;
  /** Webhook delivery settings (retry delays, timeout, hosts accepted like localhost): emulator/webhooks/settings.ts. */
  webhooks?: WebhookOptions;
  /**
   * Host names the control API, UI and frames answer besides loopback names and IP addresses
   * (`--allow-host`, e.g. a compose service's name); `.example.test` allows its subdomains too.
   */
  allowHosts?: string[];
  /** Take the client address from X-Forwarded-For (its leftmost entry) for IP allowlists: only behind a proxy you run (`--trust-proxy`). */
  trustProxy?: boolean;
  /**
   * Draw every random value (ids, mnemonics, keys, OTP codes, the enclave's ephemeral keys, ...) from
   * this seed (`--seed`): the same requests in the same order get the same answers (emulator/random.ts).
   */
  seed?: string;
  /** Start the emulated clock at this instant (`--clock`): an ISO 8601 instant or milliseconds since the epoch; the fixture's records are dated then. */
  clock?: string | number;
  /** How a clock started with `clock` moves (`--clock-mode`): "frozen" (the default: stays until moved through the control API) or "ticking". */
  clockMode?: ClockMode;
  /** Write the coverage report (GET /emulator/v1/coverage) to this JSON file, and its summary beside it as `.txt`, when the emulator stops (`--coverage-out`). */
  coverageOut?: string;
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

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const fixtureFile = typeof options.fixtures === "object" ? undefined : (options.fixtures ?? findProjectFixture(options.projectRoot));
  const fixture = typeof options.fixtures === "object" ? parseFixture(options.fixtures) : loadFixture(fixtureFile);
  const store = Store.open(options.db ?? ":memory:");
  const rt: Runtime = {
    registry,
    store,
    keyring: new Keyring(store.sealer),
    clock: options.clock === undefined ? systemClock() : startedClock(parseClockStart(options.clock), options.clockMode ?? "frozen"),
    random: createRandom(options.seed),
    validateResponses: options.validateResponses ?? process.env.EMULATOR_VALIDATE_RESPONSES === "1",
    urls: { baseUrl: "", authProxyUrl: "" },
    keys: instanceKeysFor(fixture.organization.organizationId),
    events: new EventBus(),
    control: controlState(options),
    snapshots: new SnapshotShelf(),
    devKeys: fixtureDevKeys(fixture), // the fixture's published key pairs: the control API can vote as their users
    ipAllowlist: { trustProxy: options.trustProxy ?? false },
    proxyClock: { lastMs: 0 },
    activityTurns: new ActivityTurns(),
    coverage: new CoverageRecorder(),
    // With other requests open on the server, a handler's signature is made off the event loop (the activity settles after it).
    offload: (here, onWorker) => (othersInFlight(rt.serving) ? onWorker() : here()),
  };
  countEvaluations(rt.events, rt.coverage); // each recorded decision's policy outcomes, as the event carries them
  startAppProofs(rt); // activities asking generateAppProofs get theirs recorded when they complete
  startVelocityControls(rt); // a completed activity's contribution to each velocity control, for later windows
  rt.networks = new Networks({ external: options.chains, fundedAccounts: () => fixtureFundedAccounts(fixture), baseUrl: () => rt.urls.baseUrl, now: () => rt.clock.now() });
  if (options.state) loadStateFile(rt, options.state);
  if (!rt.store.organizations.get(fixture.organization.organizationId)) seedFixture(rt, fixture, rt.clock.now());
  // After startAppProofs: listeners run in order, and a payload rendered then includes the proofs just recorded.
  const webhooks = (rt.webhooks = startWebhooks(rt, options.webhooks)); // resumes deliveries a --db file left pending

  const info = (): EmulatorInfo =>
    ({ baseUrl: rt.urls.baseUrl, authProxyUrl: rt.urls.authProxyUrl, ...fixtureInfo(fixture), ...instancePublicKeys(rt.keys), onRampEncryptionPublicKey: onRampEncryptionPublicKey(rt.keys.onRamp), oidcIssuer: oidcIssuerUrl(rt), chains: rt.networks!.list(), organizations: organizationsInfo(fixture, rt.urls) }) as EmulatorInfo;
  const reset = (again: { seed?: string } = {}) => {
    rt.coverage.learnNames(rt.store); // the policies counted so far keep their names once the store is cleared
    rt.store.clear();
    rt.keyring.clear();
    rt.clock.restart();
    rt.random.restart(again.seed);
    void rt.networks?.reset();
    resetControl(rt);
    seedFixture(rt, fixture, rt.clock.now());
  };
  const app = createApp(rt, { info, reset }, { host, allowHosts: options.allowHosts });

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
  server.on("upgrade", (req, socket) => rt.networks?.handleUpgrade(req, socket));
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
      await webhooks.stop();
      if (options.exportOnExit) exportStateFile(rt.store, options.exportOnExit);
      if (options.coverageOut) writeCoverageFiles(reportOf(rt), options.coverageOut);
      await rt.networks?.close();
      rt.store.close();
      rt.keyring.clear(); // its seeds, HD nodes and account keys hold private keys
    },
  };
}

export { loadFixture, FixtureError, type Fixture } from "./fixtures.js";
