/**
 * `npm run bench -- start`: start-up, measured on the built package (dist/, `npm run build`;
 * `--build` builds first) in fresh processes, each figure the median of several runs, next to
 * the same run's `node -e 0` (node's own boot, the floor of any CLI):
 *   - `node bin/emulator.js --help` and `--version` until exit;
 *   - `node bin/emulator.js start --port 0` until GET /emulator/v1/info answers;
 *   - in a fresh process: importing the package entry (dist/bundle/index.js, `npm run build`), the first startEmulator() after
 *     import, and a second one;
 *   - `npx emulator start` until /emulator/v1/info answers, with npx's own share (npx
 *     emulator --version against node bin/emulator.js --version).
 */
import { execFileSync, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { figure, median, ms, quick } from "./report.js";

const RUNS = quick ? 3 : 7;
const ROOT = new URL("../../", import.meta.url).pathname;

function timeExit(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}`))));
  });
}

/** Spawns a server command and times it until GET /emulator/v1/info answers 200. */
export function timeToInfo(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // Its own process group, so that stopping it also stops what npx starts (npx does not pass SIGTERM on).
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"], detached: true });
    let out = "";
    let asked = false;
    child.stdout.on("data", async (d) => {
      out += d;
      const m = /Coordinator API\s+(\S+)/.exec(out);
      if (!m || asked) return;
      asked = true;
      try {
        const r = await fetch(`${m[1]}/emulator/v1/info`);
        if (r.status !== 200) throw new Error(`/emulator/v1/info answered ${r.status}`);
        await r.json();
        resolve(performance.now() - t0);
      } catch (e) {
        reject(e);
      } finally {
        process.kill(-child.pid!, "SIGTERM");
      }
    });
    child.once("exit", (code) => !asked && reject(new Error(`${cmd} exited ${code} before it was ready: ${out.slice(0, 300)}`)));
  });
}

const IN_PROCESS = `
const t0 = performance.now();
const { startEmulator } = await import(${JSON.stringify(`${ROOT}dist/bundle/index.js`)});
const t1 = performance.now();
const a = await startEmulator({ port: 0 });
const t2 = performance.now();
const b = await startEmulator({ port: 0 });
const t3 = performance.now();
await a.stop(); await b.stop();
console.log(JSON.stringify({ boot: t0, importMs: t1 - t0, firstMs: t2 - t1, secondMs: t3 - t2 }));
`;

function inProcess(): { boot: number; importMs: number; firstMs: number; secondMs: number } {
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", IN_PROCESS], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").pop()!);
}

async function medianOf(fn: () => Promise<number>, runs = RUNS): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await fn());
  return median(xs);
}

export async function benchStart(): Promise<void> {
  console.log(`\n# start-up (built package in dist/, fresh processes, median of ${RUNS} runs)\n`);
  if (process.argv.includes("--build")) execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  const built = statSync(`${ROOT}dist/bundle/index.js`).mtimeMs;
  console.log(`  dist/ built ${((Date.now() - built) / 60000).toFixed(0)} min ago (--build rebuilds it first)`);
  const node = process.execPath;
  const nodeBoot = await medianOf(() => timeExit(node, ["-e", "0"]));
  const baseline = `node -e 0 ${ms(nodeBoot)}`;
  // On a loaded machine every process start is slower: the multiple of node's own boot says more than seconds then.
  const x = (t: number) => `${ms(t)} (${(t / nodeBoot).toFixed(1)}x node boot)`;
  const help = await medianOf(() => timeExit(node, ["bin/emulator.js", "--help"]));
  figure({ section: "start", name: "emulator --help until exit", value: x(help), baseline, goal: "<= 150 ms", met: help <= 150 });
  const version = await medianOf(() => timeExit(node, ["bin/emulator.js", "--version"]));
  figure({ section: "start", name: "emulator --version until exit", value: x(version), baseline, goal: "<= 150 ms", met: version <= 150 });
  const cli = await medianOf(() => timeToInfo(node, ["bin/emulator.js", "start", "--port", "0"]));
  figure({ section: "start", name: "node bin/emulator.js start -> /emulator/v1/info", value: x(cli), baseline, goal: "<= 300 ms", met: cli <= 300 });

  const runs = Array.from({ length: RUNS }, inProcess);
  const imp = median(runs.map((r) => r.importMs));
  const first = median(runs.map((r) => r.firstMs));
  const second = median(runs.map((r) => r.secondMs));
  figure({ section: "start", name: "import the package (dist/bundle/index.js)", value: ms(imp), baseline: `node boot to first line ${ms(median(runs.map((r) => r.boot)))}` });
  figure({ section: "start", name: "first startEmulator() after import", value: ms(first), goal: "<= 100 ms", met: first <= 100 });
  figure({ section: "start", name: "second startEmulator() in the same process", value: ms(second), goal: "<= 100 ms", met: second <= 100 });

  try {
    const npxVersion = await medianOf(() => timeExit("npx", ["--no-install", "emulator", "--version"]), Math.min(RUNS, 3));
    const npxStart = await medianOf(() => timeToInfo("npx", ["--no-install", "emulator", "start", "--port", "0"]), Math.min(RUNS, 3));
    figure({ section: "start", name: "npx emulator start -> /emulator/v1/info", value: x(npxStart), baseline: `node bin/emulator.js start ${ms(cli)}` });
    figure({ section: "start", name: "npx's own share (npx emulator --version - node)", value: ms(npxVersion - version), baseline: `npx emulator --version ${ms(npxVersion)}` });
  } catch (e) {
    console.log(`  npx emulator skipped: ${(e as Error).message.split("\n")[0]}`);
  }
}
