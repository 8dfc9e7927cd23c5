/** The runner against a scripted server: proxy steps, polling of unfinished activities, skips. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseScenario } from "./load.js";
import { runScenarios } from "./index.js";
import type { TargetConfig } from "./types.js";
import { newApiKeyPair } from "./keys.js";

type Seen = { path: string; method: string; headers: Record<string, unknown>; body: any };
let seen: Seen[] = [];
let server: Server;
let target: TargetConfig;
/** Whether the scripted server answers the emulator's control API (its clock). */
let emulatorClock = false;
let offsetMs = 0;
const ORG = "0d59bf5a-3228-47d7-8128-1e1c1da98a34";
const ts = { seconds: "1", nanos: "0" };
const activity = (status: string) => ({
  id: "act-1", organizationId: ORG, status, type: "ACTIVITY_TYPE_CREATE_USER_TAG",
  intent: { createUserTagIntent: { userTagName: "t", userIds: [] } },
  result: status === "ACTIVITY_STATUS_COMPLETED" ? { createUserTagResult: { userTagId: "tag-1", userIds: [] } } : {},
  votes: [], fingerprint: "sha256:00", canApprove: false, canReject: false, createdAt: ts, updatedAt: ts,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      seen.push({ path: req.url!, method: req.method!, headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
      const send = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.url === "/public/v1/query/whoami") return send({ organizationId: ORG, organizationName: "O", userId: "u-1", username: "root" });
      if (req.url === "/public/v1/submit/create_user_tag") return send({ activity: activity("ACTIVITY_STATUS_PENDING") });
      if (req.url === "/public/v1/query/get_activity") return send({ activity: activity("ACTIVITY_STATUS_COMPLETED") });
      if (req.url === "/v1/otp_init") return send({ otpId: "otp-1", surprise: true });
      if (req.url === "/emulator/v1/clock" && emulatorClock) {
        if (req.method === "POST") offsetMs += (JSON.parse(raw) as { advanceMs: number }).advanceMs;
        return send({ now: Date.now() + offsetMs, iso: new Date(Date.now() + offsetMs).toISOString(), offsetMs });
      }
      res.writeHead(404).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = newApiKeyPair();
  target = { url, proxyUrl: url, proxyConfigId: "cfg-1", organizationId: ORG, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey };
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const proxyScenario = parseScenario(
  "name: otp\nscope: root\nsteps:\n  - name: init\n    proxy: otp_init\n    params: { otpType: OTP_TYPE_EMAIL, contact: a@example.com }\n    expect: { fields: { otpId: otp-1 } }\n",
  "otp.yaml",
);

describe("runner", () => {
  it("sends proxy steps unstamped with the config id, and checks them against the proxy contract", async () => {
    seen = [];
    const r = await runScenarios({ target, scenarios: [proxyScenario], requestsPerSecond: 0 });
    const call = seen.find((s) => s.path === "/v1/otp_init")!;
    expect(call.headers["x-auth-proxy-config-id"]).toBe("cfg-1");
    expect(call.headers["x-stamp"]).toBeUndefined();
    expect(call.body).toEqual({ otpType: "OTP_TYPE_EMAIL", contact: "a@example.com" });
    expect(r.scenarios[0]!.steps[0]!.problems).toEqual([{ kind: "contract", path: "surprise", message: "v1InitOtpResponse: field not in the contract" }]);
  });

  it("skips proxy scenarios when the target has no auth proxy config", async () => {
    const r = await runScenarios({ target: { ...target, proxyConfigId: undefined }, scenarios: [proxyScenario], requestsPerSecond: 0 });
    expect(r.scenarios[0]).toMatchObject({ outcome: "skipped", skipReason: expect.stringMatching(/--proxy-config-id/) });
    expect(r.ok).toBe(true);
  });

  it("polls get_activity until an unfinished submit completes", async () => {
    seen = [];
    const s = parseScenario(
      "name: poll\nscope: root\nsteps:\n  - name: tag\n    submit: create_user_tag\n    params: { userTagName: t, userIds: [] }\n    expect: { activityStatus: ACTIVITY_STATUS_COMPLETED, fields: { $result.userTagId: tag-1 } }\n",
      "poll.yaml",
    );
    const r = await runScenarios({ target, scenarios: [s], requestsPerSecond: 0, pollIntervalMs: 5 });
    expect(r.scenarios[0]!.outcome, JSON.stringify(r.scenarios[0]!.steps[0]!.problems)).toBe("passed");
    expect(seen.map((x) => x.path)).toEqual(["/public/v1/query/whoami", "/public/v1/submit/create_user_tag", "/public/v1/query/get_activity"]);
    expect(seen[2]!.body).toEqual({ organizationId: ORG, activityId: "act-1" });
  });

  it("resolves scope: autoScope says what auto means, a scenario's own root/suborg stays, scope forces all", async () => {
    const who = (scope: string) => parseScenario(`name: w-${scope}\nscope: ${scope}\nsteps:\n  - name: who\n    query: whoami\n`, `${scope}.yaml`);
    const subOrgAttempts = () => seen.filter((x) => x.path === "/public/v1/submit/create_sub_organization").length;
    seen = [];
    const a = await runScenarios({ target, scenarios: [who("auto"), who("root")], autoScope: "root", requestsPerSecond: 0 });
    expect(a.scenarios.map((s) => s.scope.mode)).toEqual(["root", "root"]);
    expect(subOrgAttempts()).toBe(0);
    // auto -> suborg: the runner tries to create one (this server cannot: a setup failure); root stays root.
    const b = await runScenarios({ target, scenarios: [who("auto"), who("root")], autoScope: "suborg", requestsPerSecond: 0 });
    expect(subOrgAttempts()).toBe(1);
    expect(b.scenarios.map((s) => [s.name, s.outcome, s.scope.mode])).toEqual([["w-auto", "failed", "suborg"], ["w-root", "passed", "root"]]);
    seen = [];
    const c = await runScenarios({ target, scenarios: [who("suborg"), who("auto")], scope: "root", requestsPerSecond: 0 });
    expect(c.scenarios.map((s) => s.scope.mode)).toEqual(["root", "root"]);
    expect(subOrgAttempts()).toBe(0);
  });

  it("reports credentials the target rejects instead of running", async () => {
    const bad = { ...target, url: target.url + "/nowhere" };
    const r = await runScenarios({ target: bad, scenarios: [proxyScenario], requestsPerSecond: 0 });
    expect(r.ok).toBe(false);
    expect(r.notes[0]).toMatch(/the target rejected its credentials \(whoami: HTTP 404/);
  });

  const tick = parseScenario(
    "name: tick\ntargets: [emulator]\nscope: root\nsteps:\n  - name: a day passes\n    control: { clock: { advanceMs: 86400000 } }\n    expect: { fields: { offsetMs: { gte: 86400000 } } }\n    capture: { offset: offsetMs }\n  - name: who\n    query: whoami\n",
    "tick.yaml",
  );

  it("runs control steps on an emulator: an unstamped JSON POST to its control API, checked and captured", async () => {
    seen = [];
    emulatorClock = true;
    offsetMs = 0;
    try {
      const r = await runScenarios({ target, scenarios: [tick], requestsPerSecond: 0 });
      expect(r.scenarios[0]!.outcome, JSON.stringify(r.scenarios[0]!.steps.map((t) => t.problems))).toBe("passed");
      expect(seen.map((x) => `${x.method} ${x.path}`)).toEqual(["POST /public/v1/query/whoami", "GET /emulator/v1/clock", "POST /emulator/v1/clock", "POST /public/v1/query/whoami"]);
      const post = seen[2]!;
      expect(post.headers["content-type"]).toBe("application/json");
      expect(post.headers["x-stamp"]).toBeUndefined();
      expect(post.body).toEqual({ advanceMs: 86_400_000 });
      expect(r.scenarios[0]!.steps[0]).toMatchObject({ operation: "control clock", status: 200, outcome: "passed" });
      expect(offsetMs).toBe(86_400_000);
    } finally {
      emulatorClock = false;
    }
  });

  it("skips an emulator-only scenario on a target without the control API, with the reason, and runs nothing of it", async () => {
    seen = [];
    const r = await runScenarios({ target, scenarios: [tick, proxyScenario], requestsPerSecond: 0 });
    expect(r.scenarios[0]).toMatchObject({
      outcome: "skipped",
      steps: [],
      skipReason: "emulator-only (targets: [emulator]): the target does not answer the emulator's control API (GET /emulator/v1/clock: HTTP 404), so it is taken for a live deployment",
    });
    expect(r.scenarios[1]!.outcome).not.toBe("skipped");
    expect(r.summary).toMatchObject({ failed: 1, skipped: 1 }); // the proxy scenario's contract problem
    expect(seen.filter((x) => x.path.startsWith("/emulator/")).map((x) => x.method)).toEqual(["GET"]);
  });

  it("takes the target's emulator flag over the probe, and probes only when a scenario is emulator-only", async () => {
    seen = [];
    const live = await runScenarios({ target: { ...target, emulator: false }, scenarios: [tick], requestsPerSecond: 0 });
    expect(live.scenarios[0]).toMatchObject({ outcome: "skipped", skipReason: "emulator-only (targets: [emulator]): the target is a live deployment" });
    expect(live.ok).toBe(true);
    await runScenarios({ target, scenarios: [proxyScenario], requestsPerSecond: 0 });
    expect(seen.some((x) => x.path.startsWith("/emulator/"))).toBe(false);
    // Told it is an emulator, the runner sends the control step without asking (this server has no clock: 404).
    const told = await runScenarios({ target: { ...target, emulator: true }, scenarios: [tick], requestsPerSecond: 0 });
    expect(told.scenarios[0]!.steps[0]!.problems[0]).toMatchObject({ kind: "status", message: "expected HTTP 200, got 404" });
    expect(seen.filter((x) => x.path.startsWith("/emulator/")).map((x) => x.method)).toEqual(["POST"]);
  });
});
