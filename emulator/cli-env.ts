/**
 * `emulator env`: prints the connection of a running emulator (read from its GET
 * /emulator/v1/info) as shell exports, a dotenv file or JSON, under every variable name the
 * official SDKs and examples read (testing/connection.ts), so that a suite in any language
 * picks it up: `eval "$(npx emulator env)"`.
 *
 * It starts nothing: an emulator is a long-running process (`emulator start`, in the
 * background or in a container), and `env` only describes one. `--wait` lets a CI step start
 * it in the background and read it as soon as it answers.
 */
import { parseArgs } from "node:util";
import type { EmulatorInfo } from "./index.js";
import { connectionOf, connectionVariables, dotenv, shellExports } from "./testing/connection.js";

export const ENV_USAGE = `usage: emulator env [--url URL] [--format export|dotenv|json] [--wait SECONDS]

Prints the connection of a running emulator (it starts none) under every variable name the
official SDKs and examples read: TURNKEY_API_BASE_URL, TURNKEY_BASE_URL, TURNKEY_ORGANIZATION_ID,
TURNKEY_USER_ID, TURNKEY_API_PUBLIC_KEY, TURNKEY_API_PRIVATE_KEY, TURNKEY_AUTH_PROXY_URL,
TURNKEY_AUTH_PROXY_CONFIG_ID, TURNKEY_EMULATOR_ORG_ID, BASE_URL, ORGANIZATION_ID,
API_PUBLIC_KEY, API_PRIVATE_KEY.

  --url URL        the emulator to describe (default http://127.0.0.1:8787); the URLs printed
                   keep this origin (e.g. http://emulator:8787 on a container network)
  --format F       export (default): \`export NAME='value'\` lines for eval "$(emulator env)";
                   dotenv: NAME=value lines for a .env file or $GITHUB_ENV; json: one object
  --wait SECONDS   keep trying until the emulator answers, up to SECONDS (default 0: once)

  eval "$(npx emulator env)"                       # sh, bash, zsh
  npx emulator env --format dotenv > .env.test     # python-dotenv, dotenvy, Ruby dotenv, docker --env-file`;

const FORMATS = ["export", "dotenv", "json"] as const;

/** Runs `emulator env <argv>`; gives the exit code (0 printed, 1 no emulator answered, 2 usage). */
export async function envCommand(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s), err: (s: string) => void = (s) => process.stderr.write(s)): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: "string", default: "http://127.0.0.1:8787" },
        format: { type: "string", default: "export" },
        wait: { type: "string", default: "0" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    err(`${(e as Error).message}\n\n${ENV_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    out(`${ENV_USAGE}\n`);
    return 0;
  }
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) {
    err(`--format must be one of ${FORMATS.join(", ")}, got ${values.format}\n`);
    return 2;
  }
  const waitSeconds = Number(values.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    err(`--wait must be a number of seconds (0 or more), got ${values.wait}\n`);
    return 2;
  }
  let infoUrl: URL;
  try {
    infoUrl = new URL("/emulator/v1/info", values.url);
  } catch {
    err(`--url must be a URL such as http://127.0.0.1:8787, got ${values.url}\n`);
    return 2;
  }

  const deadline = Date.now() + waitSeconds * 1000;
  let info: EmulatorInfo | undefined;
  for (;;) {
    try {
      const res = await fetch(infoUrl, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) {
        err(`${infoUrl} answered HTTP ${res.status}: is this a Turnkey API emulator?\n`);
        return 1;
      }
      info = (await res.json()) as EmulatorInfo;
      break;
    } catch (e) {
      if (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const cause = (e as Error & { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      err(`no emulator answers at ${values.url} (${cause})${waitSeconds ? ` within ${waitSeconds} s` : ""}: start one with \`npx emulator start\`, or give --url\n`);
      return 1;
    }
  }
  if (typeof info?.baseUrl !== "string" || typeof info.organizationId !== "string") {
    err(`${infoUrl} did not answer an emulator's info (no baseUrl and organizationId)\n`);
    return 1;
  }
  const connection = connectionOf(info, values.url);
  try {
    if (format === "json") out(`${JSON.stringify(connection, null, 2)}\n`);
    else out((format === "dotenv" ? dotenv : shellExports)(connectionVariables(connection)));
  } catch (e) {
    err(`${(e as Error).message}\n`);
    return 1;
  }
  return 0;
}
