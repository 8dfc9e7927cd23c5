/**
 * The CLI's `emulator record` and `emulator replay`, run as processes: the recorder prints where
 * it listens and a running count, writes the cassette and says how many exchanges it wrote when
 * stopped; the replay prints `N exchanges, M differ`, writes --json and --junit, and exits 1 when
 * an exchange differs, 2 on a file that is not a cassette.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { sdkClient, startTestEmulator } from "../support.js";

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "record-cli-"));
const cassette = join(dir, "session.jsonl");

function cli(args: string[]): ChildProcess & { output: () => string; exited: Promise<number> } {
  const child = spawn(process.execPath, ["--import", "tsx", "emulator/cli.ts", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? -1)));
  return Object.assign(child, { output: () => out, exited });
}

async function waitFor(p: ReturnType<typeof cli>, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(p.output());
    if (m) return m;
    if (Date.now() > until || p.exitCode !== null) throw new Error(`no ${pattern} in: ${p.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let upstream: RunningEmulator;
let recordOutput: string;

beforeAll(async () => {
  upstream = await startTestEmulator();
  const rec = cli(["record", "--upstream", upstream.url, "--port", "0", "--out", cassette]);
  try {
    const url = (await waitFor(rec, /Recording proxy listening on (\S+)/))[1]!;
    const c = sdkClient({ ...upstream, url } as RunningEmulator);
    await c.getWhoami({});
    await c.createWallet({ walletName: "from the cli", accounts: [] });
    await waitFor(rec, /\s2 {2}200 {2}submit create_wallet/);
  } finally {
    rec.kill("SIGINT");
  }
  expect(await rec.exited).toBe(0);
  recordOutput = rec.output();
}, 60_000);
afterAll(async () => {
  await upstream?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("emulator record", () => {
  it("prints where it listens, each exchange as it goes, and how many it wrote", () => {
    expect(recordOutput).toMatch(/coordinator {2}http:\/\/127\.0\.0\.1:\d+ {2}-> {2}http:\/\/127\.0\.0\.1:\d+/);
    expect(recordOutput).toMatch(/\s1 {2}200 {2}query whoami\n/);
    expect(recordOutput).toContain(`Wrote 2 exchanges to ${cassette}`);
    expect(readFileSync(cassette, "utf8").trim().split("\n")).toHaveLength(3); // the header and two exchanges
  });

  it("refuses to start without an upstream or a file", async () => {
    const p = cli(["record", "--out", join(dir, "x.jsonl")]);
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain("--upstream URL is required");
  });
});

describe("emulator replay", () => {
  it("ends with N exchanges, 0 differ and writes the JSON and JUnit reports", async () => {
    const json = join(dir, "report.json");
    const junit = join(dir, "report.xml");
    const p = cli(["replay", cassette, "--json", json, "--junit", junit]);
    expect(await p.exited, p.output()).toBe(0);
    expect(p.output().trim().split("\n").at(-1)).toBe("2 exchanges, 0 differ");
    expect(JSON.parse(readFileSync(json, "utf8")).summary).toEqual({ exchanges: 2, same: 2, differ: 0, notReplayed: 0 });
    expect(readFileSync(junit, "utf8").match(/<testcase /g)).toHaveLength(2);
  }, 60_000);

  it("exits 1 when an exchange differs, naming it", async () => {
    const [header, whoami, create] = readFileSync(cassette, "utf8").trim().split("\n") as [string, string, string];
    const changed = JSON.parse(create);
    changed.response = { status: 403, headers: {}, body: { code: 7, message: "request not authorized", details: [] } };
    const file = join(dir, "changed.jsonl");
    writeFileSync(file, [header, whoami, JSON.stringify(changed)].join("\n") + "\n");
    const p = cli(["replay", file]);
    expect(await p.exited).toBe(1);
    expect(p.output()).toMatch(/DIFF {2}#2 submit create_wallet {2}\[ledger: denial-recorded-failed\]\n\s+HTTP status 403 recorded, 200 from the emulator/);
    expect(p.output().trim().split("\n").at(-1)).toBe("2 exchanges, 1 differ");
  }, 60_000);

  it("exits 2 on a file that is not a cassette", async () => {
    const file = join(dir, "not.jsonl");
    writeFileSync(file, "hello\n");
    const p = cli(["replay", file]);
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain(`${file}:1: not JSON`);
  });
});
