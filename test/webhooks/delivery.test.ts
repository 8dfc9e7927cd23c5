/**
 * Webhook delivery end to end: endpoints made through @turnkey/sdk-server, a receiver on
 * 127.0.0.1, every delivery checked with @turnkey/crypto's verifyTurnkeyWebhookSignature
 * against the JWKS the emulator serves; retries driven by the emulated clock (no sleeping).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { newP256KeyPair, sdkClient, startTestEmulator } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { control } from "../control/support.js";
import { Receiver } from "./receiver.js";
import { advanceClock, deliveries, deliveriesOf, jwksKeys, verifyReceived } from "./support.js";

const RETRY_MS = 60_000;
const emu = useTestEmulator({ webhooks: { retryDelaysMs: [RETRY_MS, RETRY_MS] } });
let receiver: Receiver;

afterEach(async () => {
  const c = sdkClient(emu);
  for (const e of (await c.listWebhookEndpoints({})).webhookEndpoints) await c.deleteWebhookEndpoint({ endpointId: e.endpointId });
  await receiver?.stop();
});

/** Creates an endpoint for the receiver; returns once the creation's own event (the new endpoint hears it) had its first attempt. */
async function endpointFor(r: Receiver, name = "test endpoint") {
  const created = await sdkClient(emu).createWebhookEndpoint({ url: r.url, name, subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
  await deliveriesOf(emu, created.activity.id, (d) => d.length === 1 && d[0]!.attempts >= 1);
  return created;
}

describe("webhook delivery", () => {
  it("POSTs the activity with the documented headers; verifyTurnkeyWebhookSignature accepts it with the served JWKS", async () => {
    receiver = await Receiver.start();
    const { endpointId } = await endpointFor(receiver);
    const c = sdkClient(emu);
    const tag = await c.createPrivateKeyTag({ privateKeyTagName: "webhook-tag", privateKeyIds: [] });
    const activityId = tag.activity.id;
    await deliveriesOf(emu, activityId, (d) => d.length === 1 && d[0]!.status === "DELIVERED");
    const [got] = receiver.forActivity(activityId);
    expect(got).toBeDefined();

    const verdict = await verifyReceived(emu, got!);
    expect(verdict).toMatchObject({ ok: true, eventId: got!.headers["x-turnkey-event-id"] });
    // The same check fails on a body changed by one byte (the oracle is not blind).
    expect(await verifyReceived(emu, got!, got!.body.replace("COMPLETED", "COMPLETEd"))).toMatchObject({ ok: false, reason: "invalid_signature" });

    expect(got!.headers).toMatchObject({
      "content-type": "application/json",
      "x-turnkey-organization-id": emu.info.organizationId,
      "x-turnkey-event-type": "ACTIVITY_UPDATES",
      "x-turnkey-webhook-version": "1",
      "x-turnkey-signature-algorithm": "ed25519",
      "x-turnkey-signature-version": "v1",
    });
    expect(got!.headers["x-turnkey-signature"]).toMatch(/^[0-9a-f]{128}$/);
    expect(got!.headers["x-turnkey-timestamp"]).toMatch(/^\d{13}$/);
    // The payload is the activity as get_activity reports it.
    const { activity } = await c.getActivity({ activityId });
    expect(got!.json).toEqual(JSON.parse(JSON.stringify(activity)));

    const [view] = await deliveries(emu, { endpointId, eventId: String(got!.headers["x-turnkey-event-id"]) });
    expect(view).toMatchObject({ status: "DELIVERED", attempts: 1, endpointId, eventType: "ACTIVITY_UPDATES", nextAttemptAt: null });
    expect(view!.history[0]).toMatchObject({ attempt: 1, statusCode: 200, outcome: "delivered", timestampMs: got!.headers["x-turnkey-timestamp"] });
  });

  it("the body shows the voter as the activity left them, even when the activity changed that user (voter renderings are reused across activities)", async () => {
    receiver = await Receiver.start();
    await endpointFor(receiver);
    const c = sdkClient(emu);
    const voterName = async (activityId: string) => {
      const [d] = await deliveriesOf(emu, activityId, (x) => x.length === 1 && x[0]!.status === "DELIVERED");
      expect(d).toBeDefined();
      return receiver.forActivity(activityId)[0]!.json.votes[0].user.userName as string;
    };
    // Two activities by the same voter: the second body may reuse the first one's rendering of the user.
    const before = (await c.getUser({ userId: emu.info.rootUserId })).user.userName;
    const first = await c.createPrivateKeyTag({ privateKeyTagName: "voter-view-1", privateKeyIds: [] });
    expect(await voterName(first.activity.id)).toBe(before);
    const second = await c.createPrivateKeyTag({ privateKeyTagName: "voter-view-2", privateKeyIds: [] });
    expect(await voterName(second.activity.id)).toBe(before);
    // Read outside any transaction too, so that a rendering of the voter is surely kept.
    expect((await c.getActivity({ activityId: second.activity.id })).activity.votes[0]!.user.userName).toBe(before);
    // An activity that renames its own voter: its body (rendered in the same transaction) has the new name.
    const renamed = await c.updateUser({ userId: emu.info.rootUserId, userName: "renamed by its own activity" });
    expect(await voterName(renamed.activity.id)).toBe("renamed by its own activity");
    const { activity } = await c.getActivity({ activityId: renamed.activity.id });
    expect(activity.votes[0]!.user.userName).toBe("renamed by its own activity");
    await c.updateUser({ userId: emu.info.rootUserId, userName: before });
  });

  it("serves the key as a JWKS (OKP Ed25519, cacheable) that does not change across a reset", async () => {
    const res = await fetch(`${emu.url}/public/v1/discovery/webhooks/jwks`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/max-age=86400/);
    const { keys } = await res.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", turnkey_signature_algorithm: "ed25519", turnkey_signature_version: "v1" });
    expect(Buffer.from(keys[0].x, "base64url")).toHaveLength(32);
    const before = await jwksKeys(emu);
    await control(emu, "POST", "/reset");
    expect(await jwksKeys(emu)).toEqual(before);
  });

  it("fires on every status change: CONSENSUS_NEEDED then COMPLETED, and REJECTED", async () => {
    receiver = await Receiver.start();
    const e = await startTestEmulator();
    try {
      const root = sdkClient(e);
      await root.createWebhookEndpoint({ url: receiver.url, name: "quorum", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
      const second = newP256KeyPair();
      const { userIds } = await root.createUsers({ users: [{ userName: "root-2", apiKeys: [{ apiKeyName: "k", publicKey: second.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
      await root.updateRootQuorum({ threshold: 2, userIds: [e.info.rootUserId, userIds[0]!] });

      const proposal = await root.createWallet({ walletName: "needs-two", accounts: [] });
      expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      await sdkClient(e, second).approveActivity({ fingerprint: proposal.activity.fingerprint });
      const other = await sdkClient(e, second).createWallet({ walletName: "rejected", accounts: [] });
      await root.rejectActivity({ fingerprint: other.activity.fingerprint });

      const statuses = async (id: string, n: number) => {
        const ds = await deliveriesOf(e, id, (d) => d.length === n && d.every((x) => x.status === "DELIVERED"));
        return ds.map((d) => d.payload.status);
      };
      expect(await statuses(proposal.activity.id, 2)).toEqual(["ACTIVITY_STATUS_CONSENSUS_NEEDED", "ACTIVITY_STATUS_COMPLETED"]);
      expect(await statuses(other.activity.id, 2)).toEqual(["ACTIVITY_STATUS_CONSENSUS_NEEDED", "ACTIVITY_STATUS_REJECTED"]);
      // Each status change is its own event; the receiver got them in order, each verifiable.
      const got = receiver.forActivity(proposal.activity.id);
      expect(got.map((r) => r.json.status)).toEqual(["ACTIVITY_STATUS_CONSENSUS_NEEDED", "ACTIVITY_STATUS_COMPLETED"]);
      expect(new Set(got.map((r) => r.headers["x-turnkey-event-id"])).size).toBe(2);
      for (const r of got) expect((await verifyReceived(e, r)).ok).toBe(true);
    } finally {
      await e.stop();
    }
  });

  it("a FAILED activity (policy denial) is delivered too", async () => {
    receiver = await Receiver.start();
    await endpointFor(receiver);
    const key = newP256KeyPair();
    const { userIds } = await sdkClient(emu).createUsers({ users: [{ userName: "no-rights", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    expect(userIds).toHaveLength(1);
    await expect(sdkClient(emu, key).createWallet({ walletName: "denied", accounts: [] })).rejects.toThrow();
    const failed = await vi_waitForFailed();
    expect(failed.payload).toMatchObject({ type: "ACTIVITY_TYPE_CREATE_WALLET", status: "ACTIVITY_STATUS_FAILED" });
  });

  it("each event is delivered exactly once when the receiver answers 2xx (40 activities, 8 at a time)", async () => {
    receiver = await Receiver.start();
    await endpointFor(receiver);
    const ids: string[] = [];
    for (let round = 0; round < 5; round++) {
      const made = await Promise.all(Array.from({ length: 8 }, (_, i) => sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: `once-${round}-${i}`, privateKeyIds: [] })));
      ids.push(...made.map((m) => m.activity.id));
    }
    for (const id of ids) await deliveriesOf(emu, id, (d) => d.length === 1 && d[0]!.status === "DELIVERED");
    await emu.runtime.families.webhooks.dispatcher.idle();
    await advanceClock(emu, 0); // a rescan finds nothing left to send
    await emu.runtime.families.webhooks.dispatcher.idle();
    for (const id of ids) expect(receiver.forActivity(id), id).toHaveLength(1);
  });

  it("a 500 is retried after the backoff with the same Event-Id and a fresh timestamp and signature", async () => {
    receiver = await Receiver.start();
    await endpointFor(receiver);
    receiver.statuses = [500];
    const { activity } = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "retry-500", privateKeyIds: [] });
    const [waiting] = await deliveriesOf(emu, activity.id, (d) => d[0]?.attempts === 1);
    expect(waiting).toMatchObject({ status: "PENDING", attempts: 1 });
    expect(waiting!.history[0]).toMatchObject({ statusCode: 500, outcome: "retry" });
    // The delay counts from the end of the failed attempt (emulated time).
    const wait = Date.parse(waiting!.nextAttemptAt!) - Date.parse(waiting!.history[0]!.at);
    expect(wait).toBeGreaterThanOrEqual(RETRY_MS);
    expect(wait).toBeLessThan(RETRY_MS + 5_000);
    await emu.runtime.families.webhooks.dispatcher.idle();
    expect(receiver.forActivity(activity.id)).toHaveLength(1); // nothing before the delay has passed

    await advanceClock(emu, RETRY_MS);
    const [done] = await deliveriesOf(emu, activity.id, (d) => d[0]?.status === "DELIVERED");
    expect(done!.attempts).toBe(2);
    const [first, second] = receiver.forActivity(activity.id);
    expect(second!.headers["x-turnkey-event-id"]).toBe(first!.headers["x-turnkey-event-id"]);
    expect(second!.body).toBe(first!.body);
    expect(Number(second!.headers["x-turnkey-timestamp"]) - Number(first!.headers["x-turnkey-timestamp"])).toBeGreaterThanOrEqual(RETRY_MS);
    expect(second!.headers["x-turnkey-signature"]).not.toBe(first!.headers["x-turnkey-signature"]);
    expect((await verifyReceived(emu, second!)).ok).toBe(true);
  });

  it("gives up after the configured attempts when the receiver keeps failing (503, then connection refused)", async () => {
    receiver = await Receiver.start();
    receiver.fallback = 503;
    await endpointFor(receiver);
    const { activity } = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "always-503", privateKeyIds: [] });
    await deliveriesOf(emu, activity.id, (d) => d[0]?.attempts === 1);
    await advanceClock(emu, RETRY_MS);
    await deliveriesOf(emu, activity.id, (d) => d[0]?.attempts === 2);
    await receiver.stop(); // the third attempt meets a closed port
    await advanceClock(emu, RETRY_MS);
    const [gaveUp] = await deliveriesOf(emu, activity.id, (d) => d[0]?.status === "FAILED");
    expect(gaveUp!.attempts).toBe(3);
    expect(gaveUp!.history.map((h) => h.outcome)).toEqual(["retry", "retry", "failed"]);
    expect(gaveUp!.history[2]!.error).toMatch(/ECONNREFUSED/);
    expect(gaveUp!.note).toMatch(/gave up after 3 attempts/);
  });

  it.each([404, 429, 301])("a %i is terminal: not retried, even once the backoff has passed", async (status) => {
    receiver = await Receiver.start();
    receiver.fallback = status;
    await endpointFor(receiver);
    const { activity } = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: `terminal-${status}`, privateKeyIds: [] });
    const [failed] = await deliveriesOf(emu, activity.id, (d) => d[0]?.status === "FAILED");
    expect(failed).toMatchObject({ attempts: 1, nextAttemptAt: null });
    expect(failed!.history[0]).toMatchObject({ statusCode: status, outcome: "failed" });
    await advanceClock(emu, 10 * RETRY_MS);
    await emu.runtime.families.webhooks.dispatcher.idle();
    expect(receiver.forActivity(activity.id)).toHaveLength(1);
  });

  it("a paused endpoint receives nothing; reactivated, it receives again; deleting it cancels what was waiting", async () => {
    receiver = await Receiver.start();
    const c = sdkClient(emu);
    const { endpointId } = await endpointFor(receiver);
    await c.updateWebhookEndpoint({ endpointId, isActive: false });
    const quiet = await c.createPrivateKeyTag({ privateKeyTagName: "while-paused", privateKeyIds: [] });
    await c.updateWebhookEndpoint({ endpointId, isActive: true });
    const loud = await c.createPrivateKeyTag({ privateKeyTagName: "after-resume", privateKeyIds: [] });
    await deliveriesOf(emu, loud.activity.id, (d) => d[0]?.status === "DELIVERED");
    expect(await deliveries(emu).then((ds) => ds.filter((d) => d.payload?.id === quiet.activity.id))).toEqual([]);

    receiver.statuses = [500];
    const retried = await c.createPrivateKeyTag({ privateKeyTagName: "then-deleted", privateKeyIds: [] });
    await deliveriesOf(emu, retried.activity.id, (d) => d[0]?.attempts === 1);
    await c.deleteWebhookEndpoint({ endpointId });
    await advanceClock(emu, RETRY_MS);
    const [canceled] = await deliveriesOf(emu, retried.activity.id, (d) => d[0]?.status === "CANCELED");
    expect(canceled!.note).toMatch(/deleted/);
    expect(receiver.forActivity(retried.activity.id)).toHaveLength(1);
  });

  it("the legacy FEATURE_NAME_WEBHOOK URL receives the organization's activity, signed the same way", async () => {
    receiver = await Receiver.start();
    const c = sdkClient(emu);
    await c.setOrganizationFeature({ name: "FEATURE_NAME_WEBHOOK", value: receiver.url });
    try {
      const { activity } = await c.createPrivateKeyTag({ privateKeyTagName: "legacy", privateKeyIds: [] });
      const [d] = await deliveriesOf(emu, activity.id, (ds) => ds[0]?.status === "DELIVERED");
      expect(d!.endpointId).toBeNull();
      expect((await verifyReceived(emu, receiver.forActivity(activity.id)[0]!)).ok).toBe(true);
    } finally {
      await c.removeOrganizationFeature({ name: "FEATURE_NAME_WEBHOOK" });
    }
    await expect(c.setOrganizationFeature({ name: "FEATURE_NAME_WEBHOOK", value: "http://example.com/hook" })).rejects.toThrow(/https/);
  });

  it("delivery does not hold up the request: a receiver that never answers leaves activities unaffected", async () => {
    receiver = await Receiver.start();
    const hung = await import("node:http").then(({ createServer }) => createServer(() => undefined /* never answers */));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    try {
      const port = (hung.address() as { port: number }).port;
      await sdkClient(emu).createWebhookEndpoint({ url: `http://127.0.0.1:${port}/hook`, name: "hung", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
      for (let n = 0; n < 5; n++) {
        const { activity } = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: `unblocked-${n}`, privateKeyIds: [] });
        expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      }
      const pending = (await deliveries(emu, { status: "PENDING" })).filter((d) => d.url.includes(String(port)));
      expect(pending.length).toBeGreaterThanOrEqual(5);
    } finally {
      hung.closeAllConnections();
      hung.close();
    }
  });

  it("waits for a quiet moment: nothing is sent while a service request is open, at most 1 s under continuous load", async () => {
    receiver = await Receiver.start();
    await endpointFor(receiver);
    const serving = emu.runtime.serving!;
    // A request to the service that stays open (as a long one would) while an activity completes.
    serving.open++;
    try {
      const held = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "held-while-busy", privateKeyIds: [] });
      const completedAt = performance.now();
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.forActivity(held.activity.id)).toEqual([]);
      // Load that never pauses does not hold it forever.
      await vi_waitFor(() => receiver.forActivity(held.activity.id).length === 1);
      expect(performance.now() - completedAt).toBeGreaterThanOrEqual(900);
    } finally {
      serving.open--;
    }
    // Quiet: the next one goes out without waiting for the hold's limit.
    const quiet = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "sent-when-quiet", privateKeyIds: [] });
    const answeredAt = performance.now();
    await vi_waitFor(() => receiver.forActivity(quiet.activity.id).length === 1);
    expect(performance.now() - answeredAt).toBeLessThan(900);
  });
});

async function vi_waitFor(ok: () => boolean) {
  await vi.waitFor(() => expect(ok()).toBe(true), { timeout: 5_000, interval: 10 });
}

async function vi_waitForFailed() {
  return vi.waitFor(
    async () => {
      const d = (await deliveries(emu)).find((x) => x.payload?.status === "ACTIVITY_STATUS_FAILED" && x.status === "DELIVERED");
      if (!d) throw new Error("no FAILED activity delivered yet");
      return d;
    },
    { timeout: 10_000, interval: 20 },
  );
}
