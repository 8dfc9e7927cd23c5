/**
 * `emulator env`, used as the README shows: a suite in another language evals its exports (a
 * Python process reads them here), or loads its dotenv output. Checked against what the running
 * emulator's GET /emulator/v1/info says.
 */
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliEmulator } from "../support.js";
import { ROOT, requireBuilt, run } from "./consumer-project.js";

const CLI = ["bin/emulator.js"];
const emulatorEnv = (args: string[]) => run(process.execPath, [...CLI, "env", ...args], { cwd: ROOT });

let child: ChildProcess | undefined;
let url = "";
let info: Record<string, any>;

beforeAll(async () => {
  requireBuilt("dist/bundle/cli.js");
  ({ child, url } = await startCliEmulator(["--port", "0"], 30_000, CLI));
  info = await (await fetch(`${url}/emulator/v1/info`)).json();
}, 40_000);

afterAll(() => {
  child?.kill("SIGTERM");
});

/** Every variable and the info field whose value it must carry. */
const expected = () => ({
  TURNKEY_API_BASE_URL: info.baseUrl,
  TURNKEY_BASE_URL: info.baseUrl,
  BASE_URL: info.baseUrl,
  TURNKEY_ORGANIZATION_ID: info.organizationId,
  ORGANIZATION_ID: info.organizationId,
  TURNKEY_EMULATOR_ORG_ID: info.organizationId,
  TURNKEY_USER_ID: info.rootUserId,
  TURNKEY_API_PUBLIC_KEY: info.apiPublicKey,
  API_PUBLIC_KEY: info.apiPublicKey,
  TURNKEY_API_PRIVATE_KEY: info.apiPrivateKey,
  API_PRIVATE_KEY: info.apiPrivateKey,
  TURNKEY_AUTH_PROXY_URL: info.authProxyUrl,
  TURNKEY_AUTH_PROXY_CONFIG_ID: info.authProxyConfigId,
});

describe("emulator env", () => {
  it('exports the connection for eval "$(emulator env)": a Python process started after it reads every variable', async () => {
    const names = Object.keys(expected());
    const python = `import json, os; print(json.dumps({k: os.environ.get(k) for k in ${JSON.stringify(names)}}))`;
    const r = await run("bash", ["-c", `set -e; eval "$(node bin/emulator.js env --url ${url})"; python3 -c '${python}'`], { cwd: ROOT });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected());
  }, 30_000);

  it("prints export lines by default, dotenv lines and JSON on request", async () => {
    const exports = await emulatorEnv(["--url", url]);
    expect(exports.code, exports.stderr).toBe(0);
    expect(exports.stdout).toContain(`export TURNKEY_API_BASE_URL='${url}'\n`);
    expect(exports.stdout.trim().split("\n")).toHaveLength(13);

    const dotenv = await emulatorEnv(["--url", url, "--format", "dotenv"]);
    expect(dotenv.code, dotenv.stderr).toBe(0);
    expect(dotenv.stdout).toContain(`TURNKEY_BASE_URL=${url}\n`); // bare: $GITHUB_ENV and docker --env-file take values literally
    expect(parseEnv(dotenv.stdout)).toEqual(expected());

    const json = await emulatorEnv(["--url", url, "--format", "json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      url: info.baseUrl,
      proxyUrl: info.authProxyUrl,
      authProxyConfigId: info.authProxyConfigId,
      organizationId: info.organizationId,
      rootUserId: info.rootUserId,
      apiPublicKey: info.apiPublicKey,
      apiPrivateKey: info.apiPrivateKey,
      walletId: info.walletId,
    });
  }, 30_000);

  it("keeps the origin it reached the emulator at (a container network's service name, localhost)", async () => {
    const viaLocalhost = url.replace("127.0.0.1", "localhost");
    const r = await emulatorEnv(["--url", `${viaLocalhost}/`, "--format", "dotenv"]);
    expect(r.code, r.stderr).toBe(0);
    expect(parseEnv(r.stdout)).toMatchObject({ TURNKEY_API_BASE_URL: viaLocalhost, TURNKEY_AUTH_PROXY_URL: viaLocalhost, BASE_URL: viaLocalhost });
  }, 30_000);

  it("fails, printing nothing to eval, when no emulator answers; --wait waits for one that starts", async () => {
    const port = await freePort();
    const none = await emulatorEnv(["--url", `http://127.0.0.1:${port}`]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain(`no emulator answers at http://127.0.0.1:${port} (ECONNREFUSED): start one with \`npx emulator start\``);

    const waiting = emulatorEnv(["--url", `http://127.0.0.1:${port}`, "--wait", "30", "--format", "json"]);
    await new Promise((r) => setTimeout(r, 500));
    const late = await startCliEmulator(["--port", String(port)], 30_000, CLI);
    try {
      const r = await waiting;
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).url).toBe(`http://127.0.0.1:${port}`);
    } finally {
      late.child.kill("SIGTERM");
    }
  }, 60_000);

  it("answers usage errors with exit code 2", async () => {
    const r = await emulatorEnv(["--format", "yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--format must be one of export, dotenv, json");
    const help = await emulatorEnv(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: emulator env");
  }, 30_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
