/**
 * `emulator record` / `emulator replay` end to end: a second emulator stands in for the live
 * service. A session of official-SDK calls goes through the recording proxy; replayed on a
 * fresh emulator it shows no difference. Recorded against an upstream that answers two
 * exchanges differently (a fault injected through its control API, a policy added behind the
 * session's back), the replay names exactly those two. No secret the session saw reaches the
 * cassette or the report.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { readCassette, type Cassette } from "../../emulator/record/cassette.js";
import { startRecorder } from "../../emulator/record/recorder.js";
import { replayCassette, type ReplayReport } from "../../emulator/record/replay.js";
import { formatReplaySummary, replayJson, replayJunit } from "../../emulator/record/report.js";
import { advanceClock, sdkClient, startTestEmulator } from "../support.js";
import { lastMail } from "../auth/support.js";
import { proxyClient } from "../proxy/support.js";
import { runSession, type SessionResult } from "./session.js";

const dir = mkdtempSync(join(tmpdir(), "record-replay-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records `runSession` through a recorder in front of `upstream` into `file`. */
async function record(upstream: RunningEmulator, file: string, hooks?: Parameters<typeof runSession>[2]): Promise<{ session: SessionResult; cassette: Cassette; text: string }> {
  const rec = await startRecorder({ upstream: upstream.url, out: file });
  let session: SessionResult;
  try {
    session = await runSession(rec.url, upstream, hooks);
  } finally {
    await rec.stop();
  }
  return { session, cassette: readCassette(file), text: readFileSync(file, "utf8") };
}

/** A secret appears in `text` as a whole value (an OTP code may occur inside a longer run of digits or hex by chance). */
const holds = (text: string, secret: string) => new RegExp(`(?<![A-Za-z0-9])${secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9])`).test(text);

describe("a session recorded against an emulator replays with no difference", () => {
  let upstream: RunningEmulator;
  let recorded: Awaited<ReturnType<typeof record>>;
  let report: ReplayReport;

  beforeAll(async () => {
    upstream = await startTestEmulator();
    recorded = await record(upstream, join(dir, "clean.jsonl"));
    report = await replayCassette(recorded.cassette);
  }, 120_000);
  afterAll(() => upstream?.stop());

  it("records at least 40 exchanges across both surfaces, every one answered as the upstream answered", () => {
    const { exchanges } = recorded.cassette;
    expect(exchanges.length).toBeGreaterThanOrEqual(40);
    expect(new Set(exchanges.map((x) => x.surface))).toEqual(new Set(["coordinator", "proxy"]));
    expect(exchanges.map((x) => x.operation)).toEqual(expect.arrayContaining(["proxy otp_init", "proxy otp_verify", "proxy otp_login", "proxy signup", "submit approve_activity", "submit sign_transaction"]));
    // The denial and the consensus were recorded as the upstream gave them.
    expect(exchanges.find((x) => x.operation === "submit create_wallet" && x.response.status === 403)).toBeDefined();
    expect(exchanges.some((x) => (x.response.body as { activity?: { status?: string } }).activity?.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED")).toBe(true);
    // Stamps keep who signed, never the signature.
    const stamped = exchanges.filter((x) => x.request.stamp);
    expect(stamped.length).toBeGreaterThan(30);
    expect(stamped.every((x) => x.request.stamp!.publicKey && !("signature" in x.request.stamp!))).toBe(true);
  });

  it("keeps every secret the session saw out of the cassette, by markers of kind and length", () => {
    const { secrets } = recorded.session;
    expect(secrets.length).toBeGreaterThanOrEqual(7); // 2 OTP codes, 2 verification tokens, a session, an export and a credential bundle
    const leaked = secrets.filter((s) => holds(recorded.text, s));
    expect(leaked).toEqual([]);
    for (const s of [upstream.info.apiPrivateKey!, "test test test test test test test test test test test junk"]) expect(recorded.text.includes(s)).toBe(false);
    expect(recorded.text).toMatch(/<redacted otpCode len=6 #\d+>/);
    expect(recorded.text).toMatch(/<redacted exportBundle len=\d+ #\d+>/);
    expect(recorded.text).toMatch(/<redacted sessionJwt len=\d+ #\d+>/);
  });

  it("replays on the embedded emulator: N exchanges, 0 differ, none skipped", () => {
    const summary = formatReplaySummary(report);
    expect(report.summary.notReplayed, summary).toBe(0);
    expect(report.summary.differ, summary).toBe(0);
    expect(summary.split("\n").at(-1)).toBe(`${recorded.cassette.exchanges.length} exchanges, 0 differ`);
  });

  it("says which ledger rows the matching exchanges confirm", () => {
    expect(report.ledger["denial-recorded-failed"]).toEqual({ confirmedBy: [expect.any(Number)], contradictedBy: [] });
    expect(report.ledger["auth-features-default"]?.confirmedBy.length).toBe(4); // the four OTP inits (two legacy, two v2)
    expect(report.ledger["approval-expiry"]?.confirmedBy.length).toBe(1);
    expect(formatReplaySummary(report)).toMatch(/confirm:\n(.*\n)*\s+denial-recorded-failed\s+\(#\d+\)/);
  });

  it("keeps the session's secrets out of the report (text, JSON, JUnit)", () => {
    const all = [formatReplaySummary(report), replayJson(report), replayJunit(report)].join("\n");
    expect(recorded.session.secrets.filter((s) => holds(all, s))).toEqual([]);
  });
});

describe("an upstream that answers two exchanges differently", () => {
  let upstream: RunningEmulator;
  let cassette: Cassette;
  let report: ReplayReport;

  beforeAll(async () => {
    upstream = await startTestEmulator();
    // 1. A fault: the session's one get_wallet fails.
    const fault = await fetch(`${upstream.url}/emulator/v1/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation: "get_wallet", count: 1, error: { code: 13, message: "injected upstream failure" } }) });
    expect(fault.status).toBe(200);
    // 2. A policy the session never listed first, added behind its back: it denies bob's signature.
    const recordedRun = await record(upstream, join(dir, "drift.jsonl"), {
      beforeBobSigns: async ({ privateKeyId }) => {
        await sdkClient(upstream).createPolicy({ policyName: "no signing with the key", effect: "EFFECT_DENY", condition: `private_key.id == '${privateKeyId}'`, notes: "" });
      },
    });
    expect(recordedRun.session.counts.bobSign).toBe(403);
    cassette = recordedRun.cassette;
    report = await replayCassette(cassette);
  }, 120_000);
  afterAll(() => upstream?.stop());

  it("names exactly those two exchanges", () => {
    const differing = report.exchanges.filter((e) => e.outcome === "differ");
    const expected = [cassette.exchanges.find((x) => x.operation === "query get_wallet")!.seq, cassette.exchanges.find((x) => x.operation === "submit sign_raw_payload" && x.response.status === 403)!.seq];
    expect(differing.map((e) => e.seq), formatReplaySummary(report)).toEqual(expected);
    expect(differing.map((e) => e.differences.map((d) => [d.kind, d.recorded, d.replayed]))).toEqual([[["status", 500, 200]], [["status", 403, 200]]]);
    expect(report.summary.notReplayed).toBe(0);
    expect(formatReplaySummary(report).split("\n").at(-1)).toBe(`${cassette.exchanges.length} exchanges, 2 differ`);
  });

  it("names the ledger row the denial touches as contradicted", () => {
    const denial = report.exchanges.find((e) => e.outcome === "differ" && e.operation === "submit sign_raw_payload")!;
    expect(denial.rows).toContain("denial-recorded-failed");
    expect(report.ledger["denial-recorded-failed"]!.contradictedBy).toEqual([denial.seq]);
  });
});

describe("recorded times replay on the emulated clock", () => {
  let upstream: RunningEmulator;
  let cassette: Cassette;

  beforeAll(async () => {
    upstream = await startTestEmulator();
    // The upstream's own clock times the exchanges, so that advancing it stands for waiting.
    const rec = await startRecorder({ upstream: upstream.url, out: join(dir, "clock.jsonl"), now: () => upstream.runtime.clock.now() });
    try {
      await sdkClient({ ...upstream, url: rec.url } as RunningEmulator).getWhoami({});
      const px = proxyClient({ ...upstream, url: rec.url, proxyUrl: rec.url } as RunningEmulator);
      const contact = "clock@example.com";
      const late = await px.proxyInitOtp({ otpType: "OTP_TYPE_EMAIL", contact });
      const lateCode = (await lastMail(upstream, contact)).otpCode!;
      await advanceClock(upstream, 301_000); // past the OTP's 300 s
      await expect(px.proxyVerifyOtp({ otpId: late.otpId, otpCode: lateCode })).rejects.toThrow(/expired/i);
      const onTime = await px.proxyInitOtp({ otpType: "OTP_TYPE_EMAIL", contact });
      await px.proxyVerifyOtp({ otpId: onTime.otpId, otpCode: (await lastMail(upstream, contact)).otpCode! });
    } finally {
      await rec.stop();
    }
    cassette = readCassette(join(dir, "clock.jsonl"));
  }, 60_000);
  afterAll(() => upstream?.stop());

  it("an OTP verified after its lifetime is refused on replay too, one verified in time is not", async () => {
    const verifies = cassette.exchanges.filter((x) => x.operation === "proxy otp_verify");
    expect(verifies.map((x) => x.response.status === 200)).toEqual([false, true]);
    const report = await replayCassette(cassette);
    expect(report.summary, formatReplaySummary(report)).toMatchObject({ exchanges: 5, differ: 0, notReplayed: 0 });
  });

  it("replays on an emulator given by URL, which takes the recorded organization as its state", async () => {
    const target = await startTestEmulator({ fixtures: "embedded-wallet-app" });
    try {
      const report = await replayCassette(cassette, { target: target.url });
      expect(report.summary, formatReplaySummary(report)).toMatchObject({ exchanges: 5, differ: 0, notReplayed: 0 });
      expect(report.target).toBe(target.url);
      const org = await fetch(`${target.url}/emulator/v1/organizations/${upstream.info.organizationId}`);
      expect(org.status).toBe(200);
    } finally {
      await target.stop();
    }
  });
});
