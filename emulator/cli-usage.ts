/**
 * What the CLI answers without starting anything: its usage (no command, --help, -h, help) and
 * its version (--version, -v). Kept apart from cli.ts so that the built CLI's entry
 * (scripts/bundle.ts) answers them before it loads the emulator's bundle.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";
import { WEBHOOK_FLAG_USAGE } from "./webhooks/cli-flags.js";
import { SUITE_FLAG_USAGE } from "./cli-suite-flags.js";

export const USAGE = `usage: emulator start [--port N] [--host H] [--db FILE] [--fixtures FILE] [--chain CAIP2=URL ...]
       emulator conformance [options]   (see: emulator conformance --help)
       emulator env [--url URL] [--format export|dotenv|json]   (see: emulator env --help)
       emulator init [--dir DIR] [--force]   (writes turnkey-emulator.jsonc: see emulator init --help)
       emulator record --upstream URL [--proxy-upstream URL] --out FILE   (see: emulator record --help)
       emulator replay FILE [--target embedded|URL] [--json OUT] [--junit OUT]   (see: emulator replay --help)
       emulator --version

  --port N         port to listen on (default 8787; 0 picks a free port)
  --host H         interface to listen on (default 127.0.0.1; 0.0.0.0 for a container network)
  --allow-host NAME  answer the control API, UI and frames on this host name too (beside
                   loopback names and IP addresses), e.g. a compose service; repeatable;
                   .example.test allows its subdomains
  --db FILE        keep state in this SQLite file (default: in memory)
  --state FILE     load this state file at start (GET /emulator/v1/state's format)
  --export-on-exit FILE  write the state to FILE when stopped (SIGINT/SIGTERM)
  --log            print one line per request (method, path, status, latency, org, caller)
  --rate-limit [N] enforce the service's rate limits: 10 requests per second per
                   organization, and with N a plan's N per second for an organization and
                   its sub-organizations together (1: the free plan); 10 per second on
                   eth_send_transaction, sol_send_transaction, get_wallet_address_balances
  --trust-proxy    take the client address for IP allowlists from X-Forwarded-For (only
                   behind a proxy you run; otherwise the TCP peer address)
  --fixtures FILE  seed state (default: the project's turnkey-emulator.jsonc when there is one
                   (emulator init writes it), else the package's fixtures/default.json)
  --chain C=URL    serve chain C (a caip2, e.g. eip155:1) from the node at URL instead of
                   the embedded one; repeatable
${WEBHOOK_FLAG_USAGE}
${SUITE_FLAG_USAGE}`;

/** Prints the usage or the version when `argv` asks for one and says whether it did. */
export function answerAtOnce(argv: string[]): boolean {
  const [command] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return true;
  }
  if (command === "--version" || command === "-v") {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string };
    console.log(pkg.version);
    return true;
  }
  return false;
}
