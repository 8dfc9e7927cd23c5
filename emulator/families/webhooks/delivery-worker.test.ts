import { createServer, type IncomingHttpHeaders } from "node:http";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import { Store } from "../../core/store/index.js";
import { DeliveryWorker } from "./delivery-worker.js";
import { jwksOf, signDelivery, loadSigningKey } from "./signing-key.js";

let got: { headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    got.push({ headers: req.headers, body });
    res.statusCode = req.url === "/fail" ? 503 : 204;
    res.end();
  });
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.close();
});

describe("delivery worker", () => {
  it("signs in the worker exactly as signDelivery does, and reports the receiver's status or the network error", async () => {
    const store = Store.open();
    const key = loadSigningKey(store);
    const worker = new DeliveryWorker();
    try {
      got = [];
      const body = '{"hello":"world"}';
      const headers = { "x-turnkey-signature-key-id": key.kid, "x-turnkey-timestamp": "1800000000000", "x-turnkey-event-id": "evt", "x-turnkey-signature-algorithm": "ed25519", "x-turnkey-signature-version": "v1" };
      const answer = await worker.send({ url: `${base}/ok`, headers, body, key: key.privateKey, timeoutMs: 5_000 });
      // The answer carries the outcome only: the signature went out in the header, where the receiver checks it.
      expect(answer).toEqual({ statusCode: 204, durationMs: expect.any(Number) });
      expect(got[0]!.body).toBe(body);
      expect(got[0]!.headers["x-turnkey-signature"]).toBe(signDelivery(key, "1800000000000", "evt", body));
      const verdict = verifyTurnkeyWebhookSignature({
        headers: got[0]!.headers as Record<string, string>,
        body: got[0]!.body,
        verificationKeys: jwksOf(key).keys.map((k) => ({ keyId: k.kid!, publicKey: Buffer.from(k.x!, "base64url").toString("hex") })),
        maxTimestampAgeMs: 1_000,
        nowMs: 1_800_000_000_000,
      });
      expect(verdict.ok).toBe(true);
      expect(await worker.send({ url: `${base}/fail`, headers, body, key: key.privateKey, timeoutMs: 5_000 })).toMatchObject({ statusCode: 503 });
      expect(await worker.send({ url: "http://127.0.0.1:9/closed", headers, body, key: key.privateKey, timeoutMs: 5_000 })).toEqual({ error: expect.stringMatching(/ECONNREFUSED/), durationMs: expect.any(Number) });
    } finally {
      await worker.stop();
      store.close();
    }
  });

  it("a worker started after a failure, or after stop(), gets the keys the old one had", async () => {
    const store = Store.open();
    const key = loadSigningKey(store);
    const worker = new DeliveryWorker();
    const headers = (i: number) => ({ "x-turnkey-signature-key-id": key.kid, "x-turnkey-timestamp": String(1_800_000_000_000 + i), "x-turnkey-event-id": `evt-${i}`, "x-turnkey-signature-algorithm": "ed25519", "x-turnkey-signature-version": "v1" });
    const send = (i: number) => worker.send({ url: `${base}/ok`, headers: headers(i), body: `{"i":${i}}`, key: key.privateKey, timeoutMs: 5_000 });
    try {
      got = [];
      expect(await send(0)).toMatchObject({ statusCode: 204 });
      // The worker dies: its key went with it.
      const dead = (worker as unknown as { worker: Worker }).worker;
      dead.emit("error", new Error("worker crashed"));
      await dead.terminate();
      expect(await send(1)).toMatchObject({ statusCode: 204 });
      await worker.stop();
      expect(await send(2)).toMatchObject({ statusCode: 204 });
      expect(got.map((g) => g.headers["x-turnkey-signature"])).toEqual([0, 1, 2].map((i) => signDelivery(key, String(1_800_000_000_000 + i), `evt-${i}`, `{"i":${i}}`)));
    } finally {
      await worker.stop();
      store.close();
    }
  });

  it("sends asked for in one turn cross together and each is signed with its own state's key", async () => {
    const stores = [Store.open(), Store.open()];
    const keys = stores.map((s) => loadSigningKey(s));
    const worker = new DeliveryWorker(4);
    const posted = vi.spyOn(Worker.prototype, "postMessage");
    try {
      got = [];
      const sends = Array.from({ length: 24 }, (_, i) => {
        const key = keys[i % 2]!;
        const headers = { "x-turnkey-signature-key-id": key.kid, "x-turnkey-timestamp": String(1_800_000_000_000 + i), "x-turnkey-event-id": `evt-${i}`, "x-turnkey-signature-algorithm": "ed25519", "x-turnkey-signature-version": "v1" };
        return worker.send({ url: `${base}/ok`, headers, body: JSON.stringify({ i }), key: key.privateKey, timeoutMs: 5_000 });
      });
      const answers = await Promise.all(sends);
      expect(answers.every((a) => "statusCode" in a && a.statusCode === 204)).toBe(true);
      // All 24 sends crossed to the worker in one message (keys may also cross on their own).
      const sendsPerMessage = posted.mock.calls.map(([m]) => (m as { kind: string }[]).filter((x) => x.kind === "send").length).filter((n) => n > 0);
      expect(sendsPerMessage).toEqual([24]);
      // Each state's key crossed once, not again when the worker started.
      const keysSent = posted.mock.calls.flatMap(([m]) => (m as { kind: string; kid?: string }[]).filter((x) => x.kind === "key").map((x) => x.kid));
      expect(keysSent.sort()).toEqual(keys.map((k) => k.kid).sort());
      expect(got).toHaveLength(24);
      for (const g of got) {
        const i = (JSON.parse(g.body) as { i: number }).i;
        expect(g.headers["x-turnkey-event-id"]).toBe(`evt-${i}`);
        const verdict = verifyTurnkeyWebhookSignature({
          headers: g.headers as Record<string, string>,
          body: g.body,
          verificationKeys: keys.flatMap((k) => jwksOf(k).keys.map((j) => ({ keyId: j.kid!, publicKey: Buffer.from(j.x!, "base64url").toString("hex") }))),
          maxTimestampAgeMs: 1_000,
          nowMs: 1_800_000_000_000 + i,
        });
        expect(verdict.ok).toBe(true);
        expect(g.headers["x-turnkey-signature-key-id"]).toBe(keys[i % 2]!.kid);
      }
    } finally {
      posted.mockRestore();
      await worker.stop();
      for (const s of stores) s.close();
    }
  });

  it.skipIf(!existsSync(`/proc/${process.pid}/task`))("runs at nice 19 on its own thread; the thread serving requests keeps its priority", async () => {
    const niceOf = () =>
      readdirSync(`/proc/${process.pid}/task`).map((tid) => {
        const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, "utf8");
        return { tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) };
      });
    const before = niceOf();
    const store = Store.open();
    const key = loadSigningKey(store);
    const worker = new DeliveryWorker();
    try {
      const headers = { "x-turnkey-signature-key-id": key.kid, "x-turnkey-timestamp": "1", "x-turnkey-event-id": "e", "x-turnkey-signature-algorithm": "ed25519", "x-turnkey-signature-version": "v1" };
      await worker.send({ url: `${base}/ok`, headers, body: "{}", key: key.privateKey, timeoutMs: 5_000 });
      const after = niceOf();
      const added = after.filter((t) => !before.some((b) => b.tid === t.tid));
      expect(added.some((t) => t.nice === 19)).toBe(true);
      expect(after.find((t) => t.tid === process.pid)!.nice).toBe(before.find((t) => t.tid === process.pid)!.nice);
    } finally {
      await worker.stop();
      store.close();
    }
  });

  it("sends one POST at a time per URL, in the order asked, while other URLs go meanwhile", async () => {
    const store = Store.open();
    const key = loadSigningKey(store);
    const worker = new DeliveryWorker(16);
    const answered: string[] = [];
    const seen: { id: string; answeredBefore: string[] }[] = [];
    // a1 is answered only once b1 has arrived (or after 3 s, which then fails the test): the
    // check that another URL does not wait holds however slowly the worker's thread runs.
    let b1Arrived!: () => void;
    const b1Seen = new Promise<void>((resolve) => (b1Arrived = resolve));
    const slow = createServer((req, res) => {
      const id = String(req.headers["x-turnkey-event-id"]);
      seen.push({ id, answeredBefore: [...answered] });
      if (id === "b1") b1Arrived();
      req.resume();
      const answer = () => {
        answered.push(id);
        res.end();
      };
      // The first answers last if nothing held the others back.
      if (id === "a1") void Promise.race([b1Seen, new Promise((r) => setTimeout(r, 3_000))]).then(() => setTimeout(answer, 20));
      else setTimeout(answer, id === "a2" ? 10 : 0);
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
    try {
      const send = (path: string, id: string) =>
        worker.send({ url: `${url}${path}`, headers: { "x-turnkey-signature-key-id": key.kid, "x-turnkey-timestamp": "1", "x-turnkey-event-id": id }, body: "{}", key: key.privateKey, timeoutMs: 5_000 });
      const answers = await Promise.all([send("/a", "a1"), send("/a", "a2"), send("/a", "a3"), send("/b", "b1")]);
      expect(answers.map((a) => ("statusCode" in a ? a.statusCode : a.error))).toEqual([200, 200, 200, 200]);
      const at = (id: string, prefix = id[0]!) => seen.find((x) => x.id === id)!.answeredBefore.filter((x) => x.startsWith(prefix));
      // Same URL: each arrived only once the one before it had its answer.
      expect(at("a1")).toEqual([]);
      expect(at("a2")).toEqual(["a1"]);
      expect(at("a3")).toEqual(["a1", "a2"]);
      // Another URL did not wait for them.
      expect(at("b1", "a")).not.toContain("a1");
    } finally {
      await worker.stop();
      slow.close();
      store.close();
    }
  });
});
