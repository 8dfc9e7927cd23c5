/**
 * When an event's outbox rows are written. In memory they are held until the event's
 * transaction has committed and written at the next quiet moment, so a rolled-back
 * transaction (or savepoint) sends nothing, and whatever reads the state whole before that
 * moment (the deliveries listing, a snapshot, an export) still finds them. In a file they are
 * written inside the event's own transaction, so that a restart delivers what committed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import Database from "better-sqlite3";
import type { RunningEmulator } from "../../emulator/index.js";
import { sdkClient, startTestEmulator } from "../support.js";
import { Receiver } from "./receiver.js";
import { deliveries, deliveriesOf } from "./support.js";

const running: RunningEmulator[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const e of running.splice(0)) await e.stop();
  for (const r of receivers.splice(0)) await r.stop();
});

async function setUp(options: Parameters<typeof startTestEmulator>[0] = {}) {
  const emu = await startTestEmulator(options);
  running.push(emu);
  const receiver = await Receiver.start();
  receivers.push(receiver);
  const created = await sdkClient(emu).createWebhookEndpoint({ url: receiver.url, name: "commit", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
  await deliveriesOf(emu, created.activity.id, (d) => d.length === 1 && d[0]!.status === "DELIVERED");
  return { emu, receiver };
}

/** Outbox rows about `activityId` in the store itself (no route that would write held rows first). */
function storedRows(emu: RunningEmulator, activityId: string): number {
  return (emu.runtime.store.db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE body LIKE ?").get(`%${activityId}%`) as { n: number }).n;
}

/** An activity made and delivered once; its row, for emitting its event again by hand. */
async function deliveredActivity(emu: RunningEmulator, name: string) {
  const { activity } = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: name, privateKeyIds: [] });
  await deliveriesOf(emu, activity.id, (d) => d.length === 1 && d[0]!.status === "DELIVERED");
  return emu.runtime.store.activities.byId(activity.id)!;
}

describe("webhook outbox and transactions", () => {
  it("in memory: an event of a transaction or savepoint that rolled back is never written nor sent; one that committed is", async () => {
    const { emu, receiver } = await setUp();
    const rt = emu.runtime;
    const [kept, inRolledBackSavepoint, inRolledBack] = [await deliveredActivity(emu, "kept"), await deliveredActivity(emu, "savepoint"), await deliveredActivity(emu, "rolled-back")];
    const emit = (a: typeof kept) => rt.events.emit({ type: "ACTIVITY_UPDATES", orgId: a.orgId, activity: a });
    rt.store.tx(() => {
      emit(kept);
      expect(() =>
        rt.store.tx(() => {
          emit(inRolledBackSavepoint);
          throw new Error("savepoint rolls back");
        }),
      ).toThrow("savepoint rolls back");
    });
    expect(() =>
      rt.store.tx(() => {
        emit(inRolledBack);
        throw new Error("rolls back");
      }),
    ).toThrow("rolls back");
    await rt.families.webhooks.dispatcher.idle();
    expect(receiver.forActivity(kept.id)).toHaveLength(2);
    expect(receiver.forActivity(inRolledBackSavepoint.id)).toHaveLength(1);
    expect(receiver.forActivity(inRolledBack.id)).toHaveLength(1);
    const rows = await deliveries(emu);
    expect(rows.filter((d) => d.payload?.id === kept.id)).toHaveLength(2);
    expect(rows.filter((d) => d.payload?.id === inRolledBackSavepoint.id || d.payload?.id === inRolledBack.id)).toHaveLength(2);
  });

  it("in memory: rows held while the service is busy are in an exported state (which delivers them elsewhere) and in the listing", async () => {
    const { emu, receiver } = await setUp();
    const serving = emu.runtime.serving!;
    serving.open++; // a service request stays open: nothing is written or sent until the hold's limit
    let activityId: string;
    let image: Buffer;
    try {
      activityId = (await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "held", privateKeyIds: [] })).activity.id;
      expect(storedRows(emu, activityId)).toBe(0); // held, not written yet
      // Read whole first (the listing would write the held rows itself).
      image = Buffer.from(await (await fetch(`${emu.url}/emulator/v1/state`)).arrayBuffer());
      expect(storedRows(emu, activityId)).toBe(1);
      const listed = (await deliveries(emu)).filter((d) => d.payload?.id === activityId);
      expect(listed.map((d) => d.status)).toEqual(["PENDING"]);
    } finally {
      serving.open--;
    }
    const db = new Database(image);
    try {
      expect(db.prepare("SELECT status FROM webhook_deliveries WHERE body LIKE ?").all(`%${activityId}%`)).toEqual([{ status: "PENDING" }]);
    } finally {
      db.close();
    }
    await vi.waitFor(() => expect(receiver.forActivity(activityId)).toHaveLength(1), { timeout: 5_000, interval: 10 });
    // Imported elsewhere, the state sends it again (at least once: receivers dedupe by Event-Id).
    const other = await startTestEmulator();
    running.push(other);
    const put = await fetch(`${other.url}/emulator/v1/state`, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: new Uint8Array(image) });
    expect(put.status).toBe(200);
    await vi.waitFor(() => expect(receiver.forActivity(activityId)).toHaveLength(2), { timeout: 5_000, interval: 10 });
    const [first, again] = receiver.forActivity(activityId);
    expect(again!.headers["x-turnkey-event-id"]).toBe(first!.headers["x-turnkey-event-id"]);
  });

  it("in memory: the deliveries listing writes the held rows before it reads", async () => {
    const { emu, receiver } = await setUp();
    const serving = emu.runtime.serving!;
    serving.open++;
    let activityId: string;
    try {
      activityId = (await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "listed", privateKeyIds: [] })).activity.id;
      expect(storedRows(emu, activityId)).toBe(0);
      const listed = (await deliveries(emu)).filter((d) => d.payload?.id === activityId);
      expect(listed.map((d) => d.status)).toEqual(["PENDING"]);
      expect(storedRows(emu, activityId)).toBe(1);
    } finally {
      serving.open--;
    }
    await vi.waitFor(() => expect(receiver.forActivity(activityId)).toHaveLength(1), { timeout: 5_000, interval: 10 });
    expect(storedRows(emu, activityId)).toBe(1); // written once, not again when sent
  });

  it("in a file: the row is written inside the activity's own transaction", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-outbox-"));
    try {
      const { emu } = await setUp({ db: join(dir, "state.db") });
      const rt = emu.runtime;
      const a = await deliveredActivity(emu, "durable");
      const count = () => (rt.store.db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE body LIKE ?").get(`%${a.id}%`) as { n: number }).n;
      rt.store.tx(() => {
        rt.events.emit({ type: "ACTIVITY_UPDATES", orgId: a.orgId, activity: a });
        expect(count()).toBe(2);
      });
      await rt.families.webhooks.dispatcher.idle();
    } finally {
      for (const e of running.splice(0)) await e.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
