/**
 * `emulator start --rate-limit [N]`: bare, the per-organization 10 requests per second; with a
 * number, a plan's limit (1: the free plan's, tkhq/docs `reference/faq.mdx`); anything else
 * stops the CLI with a message naming the flag. `--help` says so.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startCliEmulator } from "../support.js";

const ROOT = join(import.meta.dirname, "../..");
const cli = (args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "emulator/cli.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });

/** The ratelimit-limit header of an unstamped whoami of the instance's organization. */
async function limitOf(url: string): Promise<string | null> {
  const { organizationId } = (await (await fetch(`${url}/emulator/v1/info`)).json()) as { organizationId: string };
  const r = await fetch(`${url}/public/v1/query/whoami`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId }) });
  return r.headers.get("ratelimit-limit");
}

describe("emulator start --rate-limit", () => {
  it("--rate-limit 1 holds the organization to the free plan's 1 request per second; bare --rate-limit before another flag, to 10", async () => {
    for (const [args, limit] of [
      [["--rate-limit", "1", "--port", "0"], "1"],
      [["--rate-limit", "--port", "0"], "10"],
      [["--port", "0"], null],
    ] as const) {
      const { child, url } = await startCliEmulator([...args], 60_000);
      try {
        expect(await limitOf(url), args.join(" ")).toBe(limit);
      } finally {
        child.kill("SIGTERM");
      }
    }
  }, 120_000);

  it("refuses a value that is not a whole number from 1 (exit 2, naming the flag); --help describes it", () => {
    for (const value of ["0", "fast", "1.5"]) {
      const run = cli(["start", "--port", "0", "--rate-limit", value]);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--rate-limit takes nothing (10 requests per second per organization) or a plan's requests per second, a whole number from 1 (the free plan's is 1), got ${value}`);
    }
    expect(cli(["--help"]).stdout).toMatch(/--rate-limit \[N\] +enforce the service's rate limits/);
  }, 120_000);
});
