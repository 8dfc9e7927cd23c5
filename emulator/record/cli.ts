/**
 * `emulator record` and `emulator replay`. Exit codes: 0 done / no differences; 1 differences;
 * 2 usage or cassette errors.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../core/package-root.js";
import { CassetteError, readCassette } from "./cassette.js";
import { startRecorder } from "./recorder.js";
import { formatReplaySummary, replayJson, replayJunit } from "./report.js";
import { replayCassette } from "./replay.js";

export const RECORD_USAGE = `usage: emulator record --upstream URL [--proxy-upstream URL] [--port N] [--host H] --out FILE

Listens as a recording proxy: point your app or SDK at it instead of the live base URL (and
auth proxy URL). Each request goes on unchanged (stamps stay valid) and comes back with the
live answer; each exchange is written to FILE (JSON Lines) with its secrets replaced by
markers (OTP codes, session and verification tokens, id tokens, bundles, keys, mnemonics).
Stop it with Ctrl-C. Then: emulator replay FILE.

  --upstream URL        the coordinator, e.g. https://api.turnkey.com
  --proxy-upstream URL  the auth proxy for /v1/... paths, e.g. https://authproxy.turnkey.com
                        (default: the upstream serves them)
  --port N              port to listen on (default 8788; 0 picks a free port)
  --host H              interface to listen on (default 127.0.0.1)
  --out FILE            the cassette to write (replaced if it exists)
  -h, --help`;

export const REPLAY_USAGE = `usage: emulator replay FILE [--target embedded|URL] [--json OUT] [--junit OUT]

Replays a cassette written by emulator record against a fresh emulator that starts as the
recorded organization, and reports per exchange the differences that matter (status, error
code and message, turnkeyErrorCode, activity status and type, result member, the answer's
fields, types and enum values) and the docs/fidelity.md rows each exchange confirms or
contradicts. Ends with "N exchanges, M differ"; exits 1 when M > 0.

  --target embedded|URL  an emulator started in process (default), or a running emulator's
                         base URL (its state is replaced by the recorded organization)
  --json OUT             the report as JSON (holds no secret: send it to us)
  --junit OUT            JUnit XML, one test case per exchange
  -h, --help`;

const version = (): string => {
  try {
    return `turnkey-emulator ${(JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version}`;
  } catch {
    return "turnkey-emulator";
  }
};

const isUrl = (s: string) => /^https?:\/\/[^\s/]+/.test(s);

export async function recordCommand(argv: string[], out: (s: string) => void = (s) => console.log(s)): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { upstream: { type: "string" }, "proxy-upstream": { type: "string" }, port: { type: "string", default: "8788" }, host: { type: "string", default: "127.0.0.1" }, out: { type: "string" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${RECORD_USAGE}`);
    return 2;
  }
  if (values.help) {
    out(RECORD_USAGE);
    return 0;
  }
  const upstream = values.upstream as string | undefined;
  const proxyUpstream = values["proxy-upstream"] as string | undefined;
  const port = Number(values.port);
  const problem =
    !upstream ? "--upstream URL is required"
    : !isUrl(upstream) ? `--upstream must be an http(s) URL, got ${upstream}`
    : proxyUpstream && !isUrl(proxyUpstream) ? `--proxy-upstream must be an http(s) URL, got ${proxyUpstream}`
    : !values.out ? "--out FILE is required"
    : !Number.isInteger(port) || port < 0 || port > 65535 ? `--port must be a whole number from 0 to 65535, got ${values.port}`
    : undefined;
  if (problem) {
    console.error(`${problem}\n\n${RECORD_USAGE}`);
    return 2;
  }
  const file = values.out as string;
  const rec = await startRecorder({
    upstream: upstream!,
    proxyUpstream,
    out: file,
    port,
    host: values.host as string,
    recorder: version(),
    onExchange: (x, n) => out(`${String(n).padStart(5)}  ${x.response.status}  ${x.operation}`),
  });
  out(`Recording proxy listening on ${rec.url}
  coordinator  ${rec.url}  ->  ${upstream!.replace(/\/+$/, "")}
  auth proxy   ${rec.url}  ->  ${(proxyUpstream ?? upstream!).replace(/\/+$/, "")}
Cassette       ${file}
Point your app's apiBaseUrl (and authProxyUrl) at ${rec.url}; Ctrl-C stops and saves.`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await rec.stop();
  out(`\nWrote ${rec.count()} exchanges to ${file}`);
  return 0;
}

export async function replayCommand(argv: string[], out: (s: string) => void = (s) => console.log(s)): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { target: { type: "string", default: "embedded" }, json: { type: "string" }, junit: { type: "string" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${REPLAY_USAGE}`);
    return 2;
  }
  if (values.help) {
    out(REPLAY_USAGE);
    return 0;
  }
  const target = values.target as string;
  if (positionals.length !== 1 || (target !== "embedded" && !isUrl(target))) {
    console.error(`${positionals.length !== 1 ? "give exactly one cassette file" : `--target must be "embedded" or an http(s) URL, got ${target}`}\n\n${REPLAY_USAGE}`);
    return 2;
  }
  let cassette;
  try {
    cassette = readCassette(positionals[0]!);
  } catch (e) {
    if (!(e instanceof CassetteError)) throw e;
    console.error(e.message);
    return 2;
  }
  const report = await replayCassette(cassette, { target });
  out(formatReplaySummary(report));
  if (values.json) writeFileSync(values.json as string, replayJson(report));
  if (values.junit) writeFileSync(values.junit as string, replayJunit(report));
  return report.summary.differ > 0 ? 1 : 0;
}
