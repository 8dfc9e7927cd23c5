/**
 * The outbox survives a restart with --db: a delivery waiting for its retry, or cut short by
 * the stop, is delivered by the next instance on the same file, with its original Event-Id.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sdkClient, startTestEmulator } from "../support.js";
import { Receiver } from "./receiver.js";
import { advanceClock, deliveriesOf, verifyReceived } from "./support.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "webhooks-restart-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("webhook outbox across a restart (--db)", () => {
  it("a delivery waiting for its retry is delivered by the restarted instance, same Event-Id, verifiable", async () => {
    const db = join(dir, "retry.sqlite");
    const receiver = await Receiver.start();
    receiver.fallback = 503;
    const first = await startTestEmulator({ db, webhooks: { retryDelaysMs: [60_000] } });
    let activityId: string;
    try {
      await sdkClient(first).createWebhookEndpoint({ url: receiver.url, name: "survives", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
      ({ activity: { id: activityId } } = await sdkClient(first).createPrivateKeyTag({ privateKeyTagName: "before restart", privateKeyIds: [] }));
      await deliveriesOf(first, activityId, (d) => d[0]?.attempts === 1 && d[0].status === "PENDING");
    } finally {
      await first.stop();
    }
    receiver.fallback = 200;
    const second = await startTestEmulator({ db, webhooks: { retryDelaysMs: [60_000] } });
    try {
      await advanceClock(second, 60_000);
      const [d] = await deliveriesOf(second, activityId, (ds) => ds[0]?.status === "DELIVERED");
      expect(d!.attempts).toBe(2);
      const [before, after] = receiver.forActivity(activityId);
      expect(after!.headers["x-turnkey-event-id"]).toBe(before!.headers["x-turnkey-event-id"]);
      expect(after!.body).toBe(before!.body);
      expect((await verifyReceived(second, after!)).ok).toBe(true);
    } finally {
      await second.stop();
      await receiver.stop();
    }
  });

  it("an attempt cut short by the stop is made again by the next instance", async () => {
    const db = join(dir, "in-flight.sqlite");
    let arrived!: () => void;
    const attempted = new Promise<void>((resolve) => (arrived = resolve));
    const silent = createServer(() => arrived()); // takes the request, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    const first = await startTestEmulator({ db });
    let activityId: string;
    try {
      await sdkClient(first).createWebhookEndpoint({ url: `http://127.0.0.1:${port}/hook`, name: "slow", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
      ({ activity: { id: activityId } } = await sdkClient(first).createPrivateKeyTag({ privateKeyTagName: "in flight", privateKeyIds: [] }));
      await attempted;
    } finally {
      await first.stop();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
    // The same port now answers.
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        got.push(JSON.parse(body).id);
        res.end();
      });
    });
    const got: string[] = [];
    await new Promise<void>((resolve) => receiver.listen(port, "127.0.0.1", resolve));
    const second = await startTestEmulator({ db });
    try {
      const ds = await deliveriesOf(second, activityId, (d) => d.length === 1 && d[0]!.status === "DELIVERED");
      expect(ds[0]!.attempts).toBe(1); // the cut-short attempt was never recorded
      expect(got).toContain(activityId);
    } finally {
      await second.stop();
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
