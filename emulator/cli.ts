/**
 * `emulator start [--port N] [--host H] [--db FILE] [--fixtures FILE] [--chain CAIP2=URL ...]`
 */
import { parseArgs } from "node:util";
import { answerAtOnce, USAGE } from "./cli-usage.js";
import { WEBHOOK_FLAG_OPTIONS, webhookOptionsFromFlags } from "./webhooks/cli-flags.js";
import { SUITE_FLAG_OPTIONS, suiteOptionsFromFlags } from "./cli-suite-flags.js";

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
  const { values } = parseArgs({
    args: withOptionalValues(rest),
    options: {
      port: { type: "string", default: "8787" },
      host: { type: "string", default: "127.0.0.1" },
      "allow-host": { type: "string", multiple: true },
      db: { type: "string" },
      fixtures: { type: "string" },
      state: { type: "string" },
      "export-on-exit": { type: "string" },
      log: { type: "boolean", default: false },
      "rate-limit": { type: "string" }, // bare: "true" (withOptionalValues)
      "trust-proxy": { type: "boolean", default: false },
      chain: { type: "string", multiple: true },
      ...WEBHOOK_FLAG_OPTIONS,
      ...SUITE_FLAG_OPTIONS,
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535, got ${values.port}`);
    process.exit(2);
  }
  const rateLimit = rateLimitFlag(values["rate-limit"]);
  if (rateLimit === null) {
    console.error(`--rate-limit takes nothing (10 requests per second per organization) or a plan's requests per second, a whole number from 1 (the free plan's is 1), got ${values["rate-limit"]}`);
    process.exit(2);
  }
  let webhooks, suite;
  try {
    webhooks = webhookOptionsFromFlags(values);
    suite = suiteOptionsFromFlags(values);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  // The emulator and its dependencies load only for `start`.
  const [{ startEmulator }, { parseChainOption }] = await Promise.all([import("./index.js"), import("./networks/registry.js")]);
  let chains: Record<string, string>;
  try {
    chains = Object.fromEntries((values.chain ?? []).map(parseChainOption));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  }
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

/** Options given bare or with a value (`--rate-limit`, `--rate-limit 1`): a bare one reads as "true". */
const OPTIONAL_VALUE = new Set(["--rate-limit"]);

function withOptionalValues(args: string[]): string[] {
  return args.map((a, i) => (OPTIONAL_VALUE.has(a) && (i + 1 === args.length || args[i + 1]!.startsWith("-")) ? `${a}=true` : a));
}

/** `--rate-limit`'s value: absent, false; bare, true; a plan's requests per second (a whole number from 1); null for anything else. */
function rateLimitFlag(value: string | undefined): boolean | number | null {
  if (value === undefined) return false;
  if (value === "true") return true;
  return /^[0-9]{1,7}$/.test(value) && Number(value) >= 1 && Number(value) <= 1_000_000 ? Number(value) : null;
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
