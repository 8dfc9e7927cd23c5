/**
 * The container image (Dockerfile; README "Containers") run the way people run containers,
 * driven from the host through podman: the README's `docker run` line as written, the official
 * SDK, the control API, UI, frames and local chains through the published port, options from
 * their EMULATOR_* variables, a compose-style service name on a container network, a volume
 * kept across containers, SIGTERM, and the README's Testcontainers recipe through the
 * `testcontainers` npm client talking to podman's Docker-compatible API.
 *
 * It needs podman and the image `turnkey-emulator`: `.ci/run` builds it (`.ci/container-image.sh`);
 * by hand, `docker build -t turnkey-emulator .` or `bash .ci/container-image.sh`. On a machine
 * like CI's, podman also needs CONTAINERS_CONF=.ci/containers.conf. Without podman or the image
 * the file is skipped, saying why; under CI (CI set) that is a failure instead.
 */
import { afterAll, describe, expect, it } from "vitest";
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { hashMessage, recoverMessageAddress } from "viem";
import { parse as parseYaml } from "yaml";
import type { RunningEmulator } from "../../emulator/index.js";
import { sdkClient } from "../support.js";

const ROOT = join(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const CONTAINERS = README.slice(README.indexOf("### Containers:"), README.indexOf("### Without the image"));

/** The README's `docker run` line: the first in its Containers section, without a trailing comment. */
const RUN_LINE = /^docker run .*$/m.exec(CONTAINERS)![0].replace(/\s+#.*$/, "");
const IMAGE = RUN_LINE.split(/\s+/).at(-1)!;
/** The README's Testcontainers recipe in TypeScript. */
const RECIPE = [...CONTAINERS.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).find((block) => block.includes("new GenericContainer("));

/** Anvil's well-known account 0: the default fixtures' wallet holds it, funded on the local EVM chains. */
const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

function why(): string | undefined {
  const version = spawnSync("podman", ["run", "--rm", IMAGE, "--version"], { encoding: "utf8", timeout: 60_000 });
  if (version.error) return `podman is not installed (apt-get install podman runc): ${version.error.message}`;
  if (version.status === 0) return undefined;
  if (spawnSync("podman", ["image", "exists", IMAGE]).status !== 0) return `the image ${IMAGE} is not built: bash .ci/container-image.sh (or docker build -t ${IMAGE} .)`;
  return `podman cannot run a container here (${version.stderr.trim().split("\n").at(-1)}); on a machine like CI's, set CONTAINERS_CONF=.ci/containers.conf`;
}
const skip = why();
if (skip && !process.env.CI) console.warn(`test/container/image.test.ts skipped: ${skip}`);

const run = promisify(execFile);
/** Runs podman; gives its stdout (trimmed), or throws with its stderr. */
async function podman(...args: string[]): Promise<string> {
  return (await run("podman", args, { encoding: "utf8", timeout: 120_000, maxBuffer: 16 << 20 })).stdout.trim();
}

/** What this file created, removed at the end whatever happens. */
const made = { containers: [] as string[], volumes: [] as string[], networks: [] as string[], children: [] as ChildProcess[], dirs: [] as string[] };
let serial = 0;
const name = (what: string) => `tk-${what}-${process.pid}-${++serial}`;

afterAll(async () => {
  for (const c of made.children) if (c.exitCode === null) c.kill("SIGTERM");
  if (made.containers.length) await podman("rm", "-f", "-v", "--ignore", ...made.containers).catch(() => {});
  for (const v of made.volumes) await podman("volume", "rm", "-f", v).catch(() => {});
  for (const n of made.networks) await podman("network", "rm", "-f", n).catch(() => {});
  for (const d of made.dirs) rmSync(d, { recursive: true, force: true });
}, 120_000);

/** Starts a detached container of the image with these podman options (and command after the image); gives its name. */
async function detached(options: string[], command: string[] = []): Promise<string> {
  const container = name("emulator");
  made.containers.push(container);
  await podman("run", "-d", "--name", container, ...options, IMAGE, ...command);
  return container;
}

/** The host URL of a container's published port. */
async function published(container: string, port = 8787): Promise<string> {
  const hostPort = (await podman("port", container, `${port}/tcp`)).split("\n")[0]!;
  return `http://${hostPort.replace(/^0\.0\.0\.0:/, "127.0.0.1:")}`;
}

/** The emulator at `url` as the test helpers take one, once its control API answers. */
async function emulatorAt(url: string): Promise<RunningEmulator> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const r = await fetch(`${url}/emulator/v1/info`);
      if (r.ok) return { url, info: await r.json() } as RunningEmulator;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rpc(url: string, caip2: string, method: string, params: unknown[] = []): Promise<unknown> {
  const r = await fetch(`${url}/emulator/v1/chains/${caip2}/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await r.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Whether nothing listens on 127.0.0.1:port. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** The image's id (podman's ancestor filter does not resolve a short name). */
const imageId = () => podman("image", "inspect", "--format", "{{.Id}}", IMAGE);

/** `podman stop`: its duration, then the container's exit code. */
async function stop(container: string): Promise<{ ms: number; exitCode: number }> {
  const started = performance.now();
  await podman("stop", "--time", "10", container);
  const ms = performance.now() - started;
  return { ms, exitCode: Number(await podman("inspect", "--format", "{{.State.ExitCode}}", container)) };
}

if (skip && process.env.CI) {
  describe("the container image", () => {
    it("runs under CI: podman and the image are there (.ci/run builds it)", () => {
      throw new Error(skip);
    });
  });
}

describe.skipIf(!!skip)("the container image, run as people run containers", () => {
  it("the README's docker run line starts the default fixtures: banner, SDK, control API, UI, frames, local chains, health check, SIGTERM", async (ctx) => {
    expect(RUN_LINE).toBe(`docker run --rm -p 127.0.0.1:8787:8787 ${IMAGE}`);
    if (!(await portFree(8787))) {
      if (process.env.CI) throw new Error("port 8787 is taken: the README's line publishes it");
      ctx.skip();
    }
    // podman takes docker's command line as it is.
    const child = spawn("podman", RUN_LINE.split(/\s+/).slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    made.children.push(child);
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (!out.includes("API private key") && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain("Turnkey API emulator listening");
    expect(out).toMatch(/Coordinator API +http:\/\/127\.0\.0\.1:8787\n/);
    expect(out).toMatch(/Storage +:memory:\n/);

    const emu = await emulatorAt("http://127.0.0.1:8787");
    const client = sdkClient(emu);
    // @turnkey/sdk-server from the host, unchanged but for the base URL.
    expect((await client.getWhoami({})).organizationId).toBe(emu.info.organizationId);
    const { walletId, addresses } = await client.createWallet({
      walletName: "from the host",
      accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }],
    });
    const message = "signed inside the container";
    const { r, s, v } = await client.signRawPayload({ signWith: addresses[0]!, payload: hashMessage(message), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    const signature = `0x${r}${s}${(Number.parseInt(v, 16) + 27).toString(16)}` as const;
    expect(await recoverMessageAddress({ message, signature })).toBe(addresses[0]);
    expect((await client.getWallet({ walletId })).wallet.walletName).toBe("from the host");

    // The control API, the UI and the frames through the published port.
    for (const [path, type] of [
      ["/emulator/v1/info", "application/json"],
      ["/emulator/ui/", "text/html"],
      ["/emulator/frames/export", "text/html"],
      ["/openapi.json", "application/json"],
    ] as const) {
      const res = await fetch(`${emu.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toContain(type);
    }
    // The local chains: the EVM (EDR, the optional peer dependency the image holds) and Solana (LiteSVM).
    const dev = await client.getWalletAccounts({ walletId: emu.info.walletId! });
    expect(dev.accounts.map((a) => a.address)).toContain(ANVIL_0);
    expect(await rpc(emu.url, "eip155:1", "eth_chainId")).toBe("0x1");
    expect(BigInt((await rpc(emu.url, "eip155:1", "eth_getBalance", [ANVIL_0, "latest"])) as string)).toBeGreaterThan(0n);
    const solana = dev.accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_SOLANA")!.address;
    const caip2 = emu.info.chains.find((c) => c.namespace === "solana")!.caip2;
    expect(((await rpc(emu.url, caip2, "getBalance", [solana])) as { value: number }).value).toBeGreaterThan(0);

    // The image's HEALTHCHECK (Node's fetch on the control API) passes.
    const ps = await podman("ps", "--filter", `ancestor=${await imageId()}`, "--format", "{{.ID}} {{.Ports}}");
    const id = ps.split("\n").find((line) => line.includes("127.0.0.1:8787->8787/tcp"))?.split(" ")[0];
    expect(id, ps).toBeDefined();
    expect(spawnSync("podman", ["healthcheck", "run", id!], { encoding: "utf8" }).status).toBe(0);

    // SIGTERM (podman passes it on to the container): a clean exit within 2 s.
    const started = performance.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(performance.now() - started).toBeLessThan(2000);
  }, 180_000);

  it("takes every option from its EMULATOR_* variable, lists them in --help and refuses a bad one naming variable and flag", async () => {
    const help = await podman("run", "--rm", IMAGE, "--help");
    for (const variable of ["EMULATOR_PORT", "EMULATOR_DB", "EMULATOR_ALLOW_HOST", "EMULATOR_LOG", "EMULATOR_RATE_LIMIT", "EMULATOR_EXPORT_ON_EXIT"]) expect(help).toContain(`[env: ${variable}]`);

    const container = await detached(["-p", "127.0.0.1::9000", "-e", "EMULATOR_PORT=9000", "-e", "EMULATOR_LOG=1", "-e", "EMULATOR_RATE_LIMIT=1"]);
    const emu = await emulatorAt(await published(container, 9000));
    // EMULATOR_RATE_LIMIT=1: the free plan's one request per second (the rate-limit headers say so).
    const whoami = await fetch(`${emu.url}/public/v1/query/whoami`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId: emu.info.organizationId }) });
    expect(whoami.headers.get("ratelimit-limit")).toBe("1");
    // EMULATOR_LOG=1: one line per request.
    await expect.poll(async () => podman("logs", container), { timeout: 10_000 }).toMatch(/ POST \/public\/v1\/query\/whoami \d{3} /);
    // The health check reads EMULATOR_PORT.
    expect(spawnSync("podman", ["healthcheck", "run", container], { encoding: "utf8" }).status).toBe(0);

    const bad = spawnSync("podman", ["run", "--rm", "-e", "EMULATOR_PORT=http", IMAGE], { encoding: "utf8", timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("EMULATOR_PORT=http: --port must be a whole number from 0 to 65535, got http");
  }, 180_000);

  it("answers its control API by a compose service name allowed with EMULATOR_ALLOW_HOST, on a container network", async () => {
    const network = name("net");
    made.networks.push(network);
    await podman("network", "create", network);
    await detached(["--network", network, "--network-alias", "emulator", "-e", "EMULATOR_ALLOW_HOST=emulator"]);
    await detached(["--network", network, "--network-alias", "other"]);
    // Another service on the network (the image itself, which has `emulator env` and Node) reads
    // the connection as the README's compose section says; the app's environment there is the same.
    const dotenv = await podman("run", "--rm", "--network", network, IMAGE, "env", "--url", "http://emulator:8787", "--wait", "60", "--format", "dotenv");
    const env = Object.fromEntries(dotenv.split("\n").map((line) => /^(\w+)='?(.*?)'?$/.exec(line)!.slice(1, 3) as [string, string]));
    expect(env).toMatchObject({ TURNKEY_BASE_URL: "http://emulator:8787", TURNKEY_API_BASE_URL: "http://emulator:8787" });
    const compose = parseYaml(/^```yaml\n([\s\S]*?)^```$/m.exec(CONTAINERS)![1]!) as { services: Record<string, { environment: Record<string, string> }> };
    expect(compose.services.emulator!.environment).toEqual({ EMULATOR_ALLOW_HOST: "emulator" });
    for (const [variable, value] of Object.entries(compose.services.app!.environment)) expect(env[variable], variable).toBe(value);
    const status = (host: string) =>
      podman("run", "--rm", "--network", network, "--entrypoint", "node", IMAGE, "-e", `fetch("http://${host}:8787/emulator/v1/info").then((r) => console.log(r.status))`);
    expect(await status("emulator")).toBe("200");
    // A name nobody allowed is refused, as a rebinding page's would be.
    await expect.poll(() => status("other").catch(() => ""), { timeout: 30_000 }).toBe("403");
  }, 180_000);

  it("keeps wallets across containers with a volume; podman stop exits 0 within 2 s and writes --export-on-exit", async () => {
    const volume = name("data");
    made.volumes.push(volume);
    await podman("volume", "create", volume);
    const db = ["-v", `${volume}:/data`, "-e", "EMULATOR_DB=/data/emulator.db", "-p", "127.0.0.1::8787"];
    const first = await detached(db, ["start", "--export-on-exit", "/data/state.json"]);
    const before = sdkClient(await emulatorAt(await published(first)));
    const { walletId, addresses } = await before.createWallet({
      walletName: "kept across containers",
      accounts: [{ curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'", addressFormat: "ADDRESS_FORMAT_SOLANA" }],
    });
    const stopped = await stop(first);
    expect(stopped.exitCode).toBe(0);
    expect(stopped.ms).toBeLessThan(2000);
    await podman("rm", "-v", first);

    // A new container on the same volume and database: the wallet and its account are there.
    const second = await detached(db);
    const after = sdkClient(await emulatorAt(await published(second)));
    expect((await after.getWallet({ walletId })).wallet.walletName).toBe("kept across containers");
    expect((await after.getWalletAccounts({ walletId })).accounts.map((a) => a.address)).toEqual(addresses);
    await stop(second);

    // The state --export-on-exit wrote at the first stop loads into a third, in memory.
    const third = await detached(["-v", `${volume}:/data`, "-p", "127.0.0.1::8787"], ["start", "--state", "/data/state.json"]);
    const loaded = await emulatorAt(await published(third));
    expect((await sdkClient(loaded).getWalletAccounts({ walletId })).accounts.map((a) => a.address)).toEqual(addresses);
  }, 180_000);

  it("the README's Testcontainers recipe runs as written, through podman's Docker-compatible API", async () => {
    expect(RECIPE, "the README's TypeScript Testcontainers block").toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), "tk-podman-"));
    made.dirs.push(dir);
    const socket = join(dir, "podman.sock");
    const service = spawn("podman", ["system", "service", "--time=0", `unix://${socket}`], { stdio: "ignore" });
    made.children.push(service);
    await expect.poll(() => existsSync(socket), { timeout: 30_000 }).toBe(true);
    // Beside this checkout's node_modules, so that its imports resolve as in a user's project.
    const recipeDir = join(ROOT, "node_modules/.cache/container-test");
    mkdirSync(recipeDir, { recursive: true });
    const file = join(recipeDir, `recipe-${process.pid}.mts`);
    writeFileSync(file, RECIPE!);
    const ours = ["ps", "-aq", "--filter", `ancestor=${await imageId()}`];
    const before = await podman(...ours);
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", file], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 120_000,
        // No Ryuk: its image comes from a registry this machine cannot reach; the recipe stops its container itself.
        env: { ...process.env, DOCKER_HOST: `unix://${socket}`, TESTCONTAINERS_RYUK_DISABLED: "true" },
      });
      const whoami = JSON.parse(stdout.trim().split("\n").at(-1)!) as { organizationId: string; userId: string };
      expect(whoami).toMatchObject({ organizationId: "0d59bf5a-3228-47d7-8128-1e1c1da98a34", userId: "ae9477b3-2f4c-4ecd-88ee-4b1f358feeba" });
    } finally {
      rmSync(file, { force: true });
      service.kill("SIGTERM");
    }
    // The recipe's emulator.stop() removed its container.
    expect(await podman(...ours)).toBe(before);
  }, 180_000);
});
