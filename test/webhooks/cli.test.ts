/**
 * The webhook flags of `emulator start` end to end: --webhook-retry-delays sets the retry
 * schedule a failing receiver meets, --webhook-allow-host makes a host acceptable like
 * localhost, and a bad value stops the CLI with a message naming the flag.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { sdkClient, startCliEmulator } from "../support.js";
import { Receiver } from "./receiver.js";
import { deliveriesOf } from "./support.js";

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.stop();
});

describe("emulator start webhook flags", () => {
  it("--webhook-retry-delays 0,0 gives a failing receiver three attempts with one Event-Id; --webhook-allow-host accepts its host", async () => {
    const receiver = await Receiver.start();
    receivers.push(receiver);
    receiver.fallback = 500;
    const { child, url } = await startCliEmulator(["--port", "0", "--webhook-retry-delays", "0,0", "--webhook-allow-host", "hooks.compose", "--webhook-allow-host", "10.9.8.7"], 60_000);
    try {
      const info = await (await fetch(`${url}/emulator/v1/info`)).json();
      const cli = { url, info } as unknown as RunningEmulator;
      const client = sdkClient(cli);
      const created = await client.createWebhookEndpoint({ url: receiver.url, name: "failing", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
      // The creation's own event reaches the new endpoint: 1 attempt + 2 retries, then given up.
      const [d] = await deliveriesOf(cli, created.activity.id, (ds) => ds.length === 1 && ds[0]!.status === "FAILED");
      expect(d!.attempts).toBe(3);
      expect(d!.history.map((h) => [h.statusCode, h.outcome])).toEqual([
        [500, "retry"],
        [500, "retry"],
        [500, "failed"],
      ]);
      const got = receiver.forActivity(created.activity.id);
      expect(got).toHaveLength(3);
      expect(new Set(got.map((r) => r.headers["x-turnkey-event-id"]))).toEqual(new Set([d!.eventId]));
      // Named hosts are accepted over http (the default instance refuses them: emulator/families/webhooks/url.test.ts).
      for (const host of ["hooks.compose", "10.9.8.7"]) {
        const r = await client.createWebhookEndpoint({ url: `http://${host}/hook`, name: host, subscriptions: [{ eventType: "ACTIVITY_UPDATES", isActive: false }] });
        expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      }
      await expect(client.createWebhookEndpoint({ url: "http://other.compose/hook", name: "other" })).rejects.toThrow(/only https URLs are allowed/);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("a bad flag value stops the CLI (exit 2) with a message naming the flag", () => {
    const cases: [string[], RegExp][] = [
      [["--webhook-retry-delays", "5s"], /--webhook-retry-delays: delay 1 \("5s"\) is not a whole number of milliseconds/],
      [["--webhook-retry-delays", "100,-5"], /--webhook-retry-delays: delay 2/],
      [["--webhook-allow-host", "http://receiver/"], /--webhook-allow-host "http:\/\/receiver\/": give a bare host name/],
    ];
    for (const [args, message] of cases) {
      const run = spawnSync(process.execPath, ["--import", "tsx", "emulator/cli.ts", "start", "--port", "0", ...args], { cwd: join(import.meta.dirname, "../.."), encoding: "utf8", timeout: 60_000 });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).not.toMatch(/listening/);
    }
  });
});
