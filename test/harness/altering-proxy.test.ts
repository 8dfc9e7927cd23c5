/**
 * A proxy in front of an emulator changes responses the way a diverging deployment would:
 * drops a field, renames an enum value, changes an error code. The runner must fail and
 * name the scenario, the step and the field path; --compare must report exactly the change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { compareTargets, formatCompareSummary, formatRunSummary, runScenarios, type TargetConfig } from "../../contracts/harness/index.js";
import { conformanceCommand } from "../../emulator/cli-conformance.js";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { packageRoot } from "../../emulator/core/package-root.js";
import { startAlteringProxy, type Alteration } from "./support.js";

const SCENARIOS = join(packageRoot(), "scenarios");
const WHOAMI_SCENARIOS = /^(whoami|api-keys|user-acts-with-own-key|sessions|user-tags)$/;

const dropUsername: Alteration = (path, status, body) => {
  if (path === "/public/v1/query/whoami" && status === 200) delete body.username;
  return { status, body };
};
const renameTagType: Alteration = (path, status, body) => {
  if (path === "/public/v1/query/list_user_tags" && status === 200) for (const t of body.userTags) if (t.tagType === "TAG_TYPE_USER") t.tagType = "TAG_TYPE_PERSON";
  return { status, body };
};
// A live deployment has no /emulator/ routes: the proxy answers them the way a 404 would.
const noControlApi: Alteration = (path, status, body) => (path.startsWith("/emulator/") ? { status: 404, body: { code: 5, message: "Not Found", details: [] } } : { status, body });
const unauthenticatedAsForbidden: Alteration = (_path, status, body) => (status === 401 ? { status: 403, body: { ...body, code: 7 } } : { status, body });

let upstream: RunningEmulator;
let proxy: { url: string; stop(): Promise<void> };
let alteration: Alteration | undefined;
let target: TargetConfig;

beforeAll(async () => {
  upstream = await startEmulator({ port: 0, validateResponses: true });
  proxy = await startAlteringProxy(upstream.url, () => alteration);
  target = { url: proxy.url, organizationId: upstream.info.organizationId, apiPublicKey: upstream.info.apiPublicKey!, apiPrivateKey: upstream.info.apiPrivateKey!, label: "altering proxy" };
});
afterAll(async () => {
  await proxy?.stop();
  await upstream?.stop();
});

const run = (alter: Alteration, filter: RegExp) => {
  alteration = alter;
  return runScenarios({ target, scenarios: [SCENARIOS], filter, requestsPerSecond: 0 });
};

describe("a target that diverges", () => {
  it("a dropped field fails the scenario at that field", async () => {
    const r = await run(dropUsername, /^whoami$/);
    expect(r.ok).toBe(false);
    const s = r.scenarios[0]!;
    expect(s).toMatchObject({ name: "whoami", outcome: "failed" });
    expect(s.steps[0]!.problems).toEqual([
      { kind: "contract", path: "username", message: expect.stringMatching(/^v1GetWhoamiResponse: /) },
      { kind: "field", path: "username", message: expect.stringMatching(/found "\(absent\)"|found none|found undefined|\(absent\)/) },
    ]);
    expect(formatRunSummary(r)).toContain('whoami > step 1 "whoami as the organization\'s root user" (query whoami): contract at username');
  });

  it("a renamed enum value fails the scenario at that field", async () => {
    const r = await run(renameTagType, /^user-tags$/);
    const problems = r.scenarios[0]!.steps.flatMap((t) => t.problems.map((p) => ({ step: t.name, ...p })));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => /tagType$/.test(p.path ?? ""))).toBe(true);
    expect(problems).toContainEqual(expect.objectContaining({ step: "list_user_tags has the tag", kind: "contract", path: expect.stringMatching(/^userTags\[\d+\]\.tagType$/) }));
    expect(problems).toContainEqual(expect.objectContaining({ step: "list_user_tags has the tag", kind: "field", message: 'expected "TAG_TYPE_USER", found "TAG_TYPE_PERSON"' }));
  });

  it("a changed error code fails the scenario at status and code", async () => {
    const r = await run(unauthenticatedAsForbidden, /^negative-authentication$/);
    const first = r.scenarios[0]!.steps[0]!;
    expect(first.problems).toEqual([
      { kind: "status", message: expect.stringMatching(/^expected HTTP 401, got 403 \(code 7\)/) },
      { kind: "code", path: "code", message: "expected code 16, got 7" },
    ]);
  });

  it("the CLI exits 1 and prints the diff", async () => {
    alteration = dropUsername;
    const lines: string[] = [];
    const code = await conformanceCommand(
      ["--target", proxy.url, "--rate", "0", "--filter", "^whoami$", SCENARIOS],
      { TURNKEY_ORGANIZATION_ID: target.organizationId, TURNKEY_API_PUBLIC_KEY: target.apiPublicKey, TURNKEY_API_PRIVATE_KEY: target.apiPrivateKey },
      (s) => lines.push(s),
    );
    expect(code).toBe(1);
    expect(lines.join("\n")).toMatch(/FAIL {2}whoami[\s\S]*whoami > step 1 .*contract at username/);
  });
});

describe("--compare against a diverging target", () => {
  it("reports exactly the dropped field, wherever whoami answered", async () => {
    alteration = dropUsername;
    // The scenarios that call whoami, and one that does not (it must show no difference).
    const c = await compareTargets({ a: "embedded", b: target, scenarios: [SCENARIOS], filter: WHOAMI_SCENARIOS, requestsPerSecond: 0 });
    expect(c.a.scenarios.map((s) => s.name)).toEqual(["api-keys", "sessions", "user-acts-with-own-key", "user-tags", "whoami"]);
    expect(c.ok).toBe(false);
    expect(c.differences.length).toBeGreaterThan(0);
    for (const d of c.differences) expect(d, formatCompareSummary(c)).toMatchObject({ path: "username", kind: "missing", operation: "query whoami" });
    expect([...new Set(c.differences.map((d) => d.scenario))].sort()).toEqual(["api-keys", "sessions", "user-acts-with-own-key", "whoami"]);
    expect(formatCompareSummary(c)).toContain("whoami > whoami as the organization's root user (query whoami): field username present in A, missing in B");
  }, 30_000);

  it("reports exactly the renamed enum value and the changed error code", async () => {
    alteration = renameTagType;
    const e = await compareTargets({ a: "embedded", b: target, scenarios: [SCENARIOS], filter: /^user-tags$/, requestsPerSecond: 0 });
    expect(e.differences.length).toBeGreaterThan(0);
    for (const d of e.differences) expect(d).toMatchObject({ scenario: "user-tags", path: "userTags[].tagType", kind: "enum", operation: "query list_user_tags" });
    expect(e.differences[0]).toMatchObject({ a: ["TAG_TYPE_USER"], b: ["TAG_TYPE_PERSON"] });

    alteration = unauthenticatedAsForbidden;
    const s = await compareTargets({ a: "embedded", b: target, scenarios: [SCENARIOS], filter: /^negative-authentication$/, requestsPerSecond: 0 });
    expect(s.differences).toHaveLength(8);
    for (const [i, step] of s.a.scenarios[0]!.steps.entries()) {
      expect(s.differences.slice(2 * i, 2 * i + 2)).toEqual([
        { scenario: "negative-authentication", step: step.name, operation: step.operation, path: "(http status)", kind: "status", a: 401, b: 403 },
        { scenario: "negative-authentication", step: step.name, operation: step.operation, path: "code", kind: "code", a: 16, b: 7 },
      ]);
    }
  }, 30_000);
});

describe("a target without the emulator's control API, as a live deployment", () => {
  const reason = "emulator-only (targets: [emulator]): the target does not answer the emulator's control API (GET /emulator/v1/clock: HTTP 404), so it is taken for a live deployment";

  it("reports an emulator-only scenario skipped with the reason, not failed, and runs the rest", async () => {
    const r = await run(noControlApi, /^(earn-flow|whoami)$/);
    expect(r.scenarios.map((s) => [s.name, s.outcome, s.skipReason])).toEqual([
      ["earn-flow", "skipped", reason],
      ["whoami", "passed", undefined],
    ]);
    expect(r.summary).toMatchObject({ passed: 1, failed: 0, skipped: 1 });
    expect(r.ok).toBe(true);
    expect(formatRunSummary(r)).toMatch(/SKIP {2}earn-flow/);
  });

  it("the CLI exits 0 and lists it as skipped in JUnit", async () => {
    alteration = noControlApi;
    const lines: string[] = [];
    const code = await conformanceCommand(
      ["--target", proxy.url, "--rate", "0", "--filter", "^earn-flow$", SCENARIOS],
      { TURNKEY_ORGANIZATION_ID: target.organizationId, TURNKEY_API_PUBLIC_KEY: target.apiPublicKey, TURNKEY_API_PRIVATE_KEY: target.apiPrivateKey },
      (s) => lines.push(s),
    );
    expect(code, lines.join("\n")).toBe(0);
    expect(lines.join("\n")).toContain("0 passed, 0 failed, 1 skipped");
  });

  it("--compare with the embedded emulator names the scenario that ran on one side only", async () => {
    alteration = noControlApi;
    const c = await compareTargets({ a: "embedded", b: target, scenarios: [SCENARIOS], filter: /^earn-flow$/, requestsPerSecond: 0 });
    expect(c.a.scenarios[0]!.outcome).toBe("passed");
    expect(c.differences[0]).toEqual({ scenario: "earn-flow", step: "(scenario)", operation: "", path: "", kind: "step", a: "passed", b: reason });
  }, 30_000);
});
