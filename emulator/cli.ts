/**
 * `emulator start [--port N] [--host H] [--db FILE] [--fixtures FILE] [--chain CAIP2=URL ...]`;
 * every option can also come from its EMULATOR_* variable (cli-start-options.ts).
 */
import { readStartOptions, type StartOptionName, type StartOptions } from "./cli-start-options.js";
import { answerAtOnce, USAGE } from "./cli-usage.js";
import { webhookOptionsFromFlags } from "./families/webhooks/index.js";
import { suiteOptionsFromFlags } from "./cli-suite-flags.js";

async function main(argv: string[]): Promise<void> {
  if (answerAtOnce(argv)) return;
  const [command, ...rest] = argv;
  if (command === "conformance") {
    // Loaded on demand: the harness is not needed to start the emulator.
    const { conformanceCommand } = await import("./cli-conformance.js");
    process.exit(await conformanceCommand(rest));
  }
  if (command === "record" || command === "replay") {
    // Loaded on demand, like conformance: neither starts the emulator unless it replays.
    const { recordCommand, replayCommand } = await import("./record/cli.js");
    process.exit(await (command === "record" ? recordCommand : replayCommand)(rest));
  }
  if (command === "init") {
    // Writes a file; loads no emulator.
    const { initCommand } = await import("./cli-init.js");
    process.exit(initCommand(rest));
  }
  if (command === "env") {
    // Describes a running emulator; loads none of it.
    const { envCommand } = await import("./cli-env.js");
    process.exit(await envCommand(rest));
  }
  if (command !== "start") {
    console.error(`unknown command: ${command}\n\n${USAGE}`);
    process.exit(2);
  }
  let options: StartOptions;
  try {
    options = readStartOptions(rest);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const { values, refusal } = options;
  for (const name of options.unknownVariables) console.error(`warning: ${name} is not a start option's variable (see emulator --help); ignored`);
  /** The option's value as `read` makes it, or exit 2 with the refusal (naming the flag, and the variable when the value came from it). */
  const checked = <T>(name: StartOptionName, read: () => T): T => {
    try {
      return read();
    } catch (err) {
      console.error(refusal(name, err instanceof Error ? err.message : String(err)));
      process.exit(2);
    }
  };
  const port = checked("port", () => portFlag(values.port));
  const rateLimit = checked("rate-limit", () => rateLimitFlag(values["rate-limit"]));
  const webhooks = {
    ...checked("webhook-allow-host", () => webhookOptionsFromFlags({ "webhook-allow-host": values["webhook-allow-host"] })),
    ...checked("webhook-retry-delays", () => webhookOptionsFromFlags({ "webhook-retry-delays": values["webhook-retry-delays"] })),
  };
  const suite = {
    ...checked("seed", () => suiteOptionsFromFlags({ seed: values.seed })),
    ...checked("clock", () => suiteOptionsFromFlags({ clock: values.clock })),
    ...checked("clock-mode", () => suiteOptionsFromFlags({ clock: values.clock, "clock-mode": values["clock-mode"] })),
    ...checked("coverage-out", () => suiteOptionsFromFlags({ "coverage-out": values["coverage-out"] })),
  };
  // The emulator and its dependencies load only for `start`.
  const [{ startEmulator }, { parseChainOption }] = await Promise.all([import("./index.js"), import("./families/chains/index.js")]);
  const chains = checked("chain", () => Object.fromEntries((values.chain ?? []).map(parseChainOption)));
  const emu = await startEmulator({ port, host: values.host, db: values.db, fixtures: values.fixtures, state: values.state, exportOnExit: values["export-on-exit"], log: values.log, rateLimit, trustProxy: values["trust-proxy"], allowHosts: values["allow-host"], chains, webhooks, ...suite });
  const i = emu.info;
  console.log(`
Turnkey API emulator listening

Coordinator API   ${emu.url}
Auth proxy        ${emu.proxyUrl}${i.authProxyConfigId ? `  (X-Auth-Proxy-Config-ID ${i.authProxyConfigId})` : ""}
Control API       ${emu.url}/emulator/v1/info
Web UI            ${emu.url}/emulator/ui/
Chains (JSON-RPC) ${emu.url}/emulator/v1/chains/<caip2>/rpc  (e.g. eip155:1, started on first use)
OpenAPI document  ${emu.url}/openapi.json
Storage           ${values.db ?? ":memory:"}
Fixture           ${emu.fixtureFile ?? "(object)"}

Organization      ${i.organizationId}  (${i.organizationName})
Root user         ${i.rootUserId}
Dev wallet        ${i.walletId ?? "(none)"}

Well-known dev API key (PUBLIC AND INSECURE: for local development only)
  API public key  ${i.apiPublicKey}
  API private key ${i.apiPrivateKey}

Use it with @turnkey/sdk-server:
  new Turnkey({ apiBaseUrl: "${emu.url}", defaultOrganizationId: "${i.organizationId}",
                apiPublicKey: "${i.apiPublicKey}", apiPrivateKey: "${i.apiPrivateKey}" })
`);
  const shutdown = async () => {
    await emu.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

function portFlag(value: string): number {
  if (!/^[0-9]{1,5}$/.test(value) || Number(value) > 65535) throw new Error(`--port must be a whole number from 0 to 65535, got ${value}`);
  return Number(value);
}

/** `--rate-limit`'s value: absent, false; bare, true; a plan's requests per second (a whole number from 1). */
function rateLimitFlag(value: string | undefined): boolean | number {
  if (value === undefined) return false;
  if (value === "true") return true;
  if (/^[0-9]{1,7}$/.test(value) && Number(value) >= 1 && Number(value) <= 1_000_000) return Number(value);
  throw new Error(`--rate-limit takes nothing (10 requests per second per organization) or a plan's requests per second, a whole number from 1 (the free plan's is 1), got ${value}`);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
