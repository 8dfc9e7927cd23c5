/**
 * The published package works where users put it: packs this checkout as `npm publish` would and
 * installs it into a fresh temporary project together with @turnkey/sdk-server (packed.ts), checks
 * that the tarball holds what runs and nothing else, and there runs `npx emulator start`,
 * `startEmulator()` from an ES module and SDK calls with the printed dev key. Skipped, saying so,
 * only when the registry cannot be reached.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENV, packAndInstall, readJson, registryUnreachable, ROOT, run, versionHere, type PackedFile } from "./packed.js";

const unreachable = await registryUnreachable();
if (unreachable) console.warn(`test/package/pack.test.ts skipped: the npm registry cannot be reached (${unreachable})`);

/** The SDK version the suite itself uses, so that the npm cache usually has it. */
const SDK_VERSION = versionHere("@turnkey/sdk-server");
const SOLANA_MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

let work = "";
let project = "";
let files: PackedFile[] = [];
let unpackedSize = 0;
const children: ChildProcess[] = [];

/** Runs an ES module in the consumer project and returns what it printed as JSON on its last line. */
async function inProject(source: string): Promise<any> {
  const file = join(project, `script-${Date.now()}.mjs`);
  writeFileSync(file, source);
  const { stdout } = await run(process.execPath, [file], { cwd: project, env: ENV, timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

/** A script's lines that print the SDK's getWhoami answer; the arguments are JavaScript expressions. */
const whoami = (url: string, organizationId: string, publicKey: string, privateKey: string) => `
const api = new Turnkey({ apiBaseUrl: ${url}, defaultOrganizationId: ${organizationId}, apiPublicKey: ${publicKey}, apiPrivateKey: ${privateKey} }).apiClient();
const whoami = await api.getWhoami({});
`;

describe.skipIf(unreachable)("the npm package", () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "turnkey-emulator-pack-"));
    const installed = await packAndInstall(work, [`@turnkey/sdk-server@${SDK_VERSION}`]);
    project = installed.project;
    files = installed.packed.files;
    unpackedSize = installed.packed.unpackedSize;
  }, 240_000);

  afterAll(() => {
    for (const c of children) if (c.pid && c.exitCode === null) process.kill(-c.pid, "SIGTERM");
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000); // removing the installed project's node_modules takes over 30 s on a loaded machine

  it("holds what runs and nothing else: no tests, benchmarks, scripts, TypeScript sources, source maps or code caches", () => {
    const paths = files.map((f) => f.path);
    const stray = paths.filter((p) => /(^|\/)(test|tests|bench|scripts|examples|docs|node_modules)\//.test(p) || /\.test\.|\.map$|\.v8-cache|\.tsbuildinfo$/.test(p) || (p.endsWith(".ts") && !p.endsWith(".d.ts")));
    expect(stray).toEqual([]);
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/bin/emulator",
      "dist/bundle/cli.js",
      "dist/bundle/cli.cjs",
      "dist/bundle/index.js",
      "dist/bundle/index.cjs",
      "dist/bundle/cached-script.js",
      "dist/bundle/vitest-file.js", // the setup file turnkey-emulator/vitest adds to a project (not in the exports map)
      "dist/emulator/index.d.ts",
      "fixtures/default.json",
      "contracts/generated/openapi.json",
      "emulator/ui/assets/index.html",
      "emulator/trust/register.js",
      "emulator/trust/vite.js",
      "emulator/trust/webpack.js",
      "emulator/trust/webpack-loader.cjs",
    ])
      expect(paths).toContain(needed);
    // Every file the exports map names is in the tarball.
    const targets = (e: unknown): string[] => (typeof e === "string" ? [e] : Object.values(e as object).flatMap(targets));
    const manifest = readJson(join(ROOT, "package.json"));
    for (const target of [...targets(manifest.exports), manifest.main, manifest.types]) expect(paths, target).toContain(target.replace(/^\.\//, ""));
    expect(unpackedSize).toBeLessThan(20 * 1024 * 1024);
  });

  it("installs only this platform's native binaries, without EDR, in at most 150 MB beyond the SDK's own packages", () => {
    const modules = join(project, "node_modules");
    expect(existsSync(join(modules, "@nomicfoundation"))).toBe(false);
    expect(readdirSync(modules).filter((n) => n.startsWith("litesvm-"))).toHaveLength(1);
    const sizes = footprint(project);
    console.log(`consumer footprint: ${sizes.report}`);
    expect(sizes.own).toBeLessThan(150 * 1024 * 1024);
  });

  it("runs `npx emulator start`, whose printed dev key the SDK uses; a local Solana chain runs, a local EVM chain names the install line it needs", async () => {
    const child = spawn("npx", ["--no-update-notifier", "emulator", "start", "--port", "0"], { cwd: project, env: ENV, stdio: ["ignore", "pipe", "pipe"], detached: true });
    children.push(child);
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner after 30 s: ${out}${err}`)), 30_000);
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("API private key")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`npx emulator start exited ${code}: ${out}${err}`)));
    });
    const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(out)![1]!;
    const url = field("Coordinator API");
    const [org, publicKey, privateKey] = ["Organization", "API public key", "API private key"].map((l) => JSON.stringify(field(l)));
    const answer = await inProject(`import { Turnkey } from "@turnkey/sdk-server";${whoami(JSON.stringify(url), org!, publicKey!, privateKey!)}console.log(JSON.stringify(whoami));`);
    expect(answer.organizationId).toBe(field("Organization"));
    expect(answer.userId).toBe(field("Root user"));

    const rpc = async (caip2: string, method: string) =>
      (await fetch(`${url}/emulator/v1/chains/${caip2}/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }) })).json() as Promise<{
        result?: unknown;
        error?: { message: string };
      }>;
    expect(typeof (await rpc(SOLANA_MAINNET, "getSlot")).result).toBe("number");
    const evm = await rpc("eip155:1", "eth_chainId");
    expect(evm.result).toBeUndefined();
    expect(evm.error!.message).toContain("npm i -D @nomicfoundation/edr@^0.13.0");
    expect(err).toContain("npm i -D @nomicfoundation/edr@^0.13.0");
  }, 60_000);

  it("starts and stops an instance with startEmulator() from an ES module, and the SDK reads it", async () => {
    const answer = await inProject(`
      import { Turnkey } from "@turnkey/sdk-server";
      import { startEmulator } from "turnkey-emulator";
      const emu = await startEmulator({ port: 0 });
      const { info } = emu;
      ${whoami("emu.url", "info.organizationId", "info.apiPublicKey", "info.apiPrivateKey")}
      await emu.stop();
      const stopped = await fetch(emu.url + "/emulator/v1/info").then(() => false, () => true);
      console.log(JSON.stringify({ info, whoami, stopped }));
    `);
    expect(answer.info.organizationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.whoami.organizationId).toBe(answer.info.organizationId);
    expect(answer.whoami.userId).toBeTruthy();
    expect(answer.stopped).toBe(true);
  }, 60_000);
});

/**
 * Bytes on disk of the packages only turnkey-emulator brings (not reachable from @turnkey/sdk-server,
 * which every consumer here has), each package folder without its nested node_modules, and the
 * figure per dependency of turnkey-emulator.
 */
function footprint(dir: string): { own: number; report: string } {
  const lock = readJson(join(dir, "node_modules", ".package-lock.json")).packages as Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> }>;
  const du = (p: string): number =>
    readdirSync(p).reduce((sum, e) => {
      const f = join(p, e);
      const st = lstatSync(f);
      return sum + (st.isDirectory() ? (e === "node_modules" ? 0 : du(f)) : st.blocks * 512);
    }, 0);
  const sizes = new Map(Object.keys(lock).filter((k) => existsSync(join(dir, k))).map((k) => [k, du(join(dir, k))]));
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ; ) {
      const k = `${base ? `${base}/` : ""}node_modules/${name}`;
      if (sizes.has(k)) return k;
      if (!base) return undefined;
      const i = base.lastIndexOf("/node_modules/");
      base = i < 0 ? "" : base.slice(0, i);
    }
  };
  const closure = (start: string): Set<string> => {
    const seen = new Set<string>();
    for (const todo = [start]; todo.length; ) {
      const k = todo.pop()!;
      if (seen.has(k)) continue;
      seen.add(k);
      const p = lock[k] ?? {};
      for (const n of Object.keys({ ...p.dependencies, ...p.optionalDependencies, ...p.peerDependencies })) {
        const r = resolve(k, n);
        if (r) todo.push(r);
      }
    }
    return seen;
  };
  const emulator = "node_modules/turnkey-emulator";
  const sdk = closure("node_modules/@turnkey/sdk-server");
  const own = [...closure(emulator)].filter((k) => !sdk.has(k));
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
  const byDependency = new Map<string, number>([["turnkey-emulator itself", sizes.get(emulator)!]]);
  const deps = Object.keys({ ...lock[emulator]!.dependencies, ...lock[emulator]!.optionalDependencies }).map((d) => [d, closure(resolve(emulator, d) ?? "")] as const);
  for (const k of own.filter((k) => k !== emulator)) {
    const owners = deps.filter(([, c]) => c.has(k)).map(([d]) => d);
    const key = owners.length === 1 ? owners[0]! : "(shared)";
    byDependency.set(key, (byDependency.get(key) ?? 0) + sizes.get(k)!);
  }
  const total = own.reduce((s, k) => s + sizes.get(k)!, 0);
  return { own: total, report: `${mb(total)} beyond the SDK's packages; ${[...byDependency].sort((a, b) => b[1] - a[1]).map(([d, s]) => `${d} ${mb(s)}`).join(", ")}` };
}
