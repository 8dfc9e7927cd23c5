/** Runs scenarios against one target and reports every divergence. */
import { checkResponse, coordinatorSchemas, proxySchemas } from "../index.js";
import { emulatorOnly, type LoadedScenario, type Step } from "./format.js";
import { controlCall, EMULATOR_PROBE_PATH, isEmulatorProbe } from "./control.js";
import { HttpClient, type HttpResult, type Pacing } from "./http.js";
import { interpolate, interpolateString, type InterpolationContext, type ScopeOrg } from "./interpolate.js";
import { expandShorthand, getPath } from "./json-path.js";
import { KeyRing, type ApiKeyPair } from "./keys.js";
import { matchField } from "./matchers.js";
import { stepOperation, type StepOperation } from "./operations.js";
import { runInvariant } from "./invariants/index.js";
import { describeFailure, openScope, type ScopeRuntime } from "./scope.js";
import type { RunReport, ScenarioResult, StepResult, TargetConfig } from "./types.js";

export type RunTargetOptions = {
  target: TargetConfig;
  kind: "embedded" | "url";
  scenarios: LoadedScenario[];
  /** Forces every scenario's scope (default: each scenario's own, `auto`). */
  scope?: "auto" | "suborg" | "root";
  /** What a scenario's `auto` scope means (default: root on the embedded emulator, suborg on a URL). */
  autoScope?: "suborg" | "root";
  pacing: Pacing;
  emailDomain: string;
  /** Wait between polls of a submit that is not finished yet (default 1000 ms, 3 polls). */
  pollIntervalMs?: number;
  onScenario?: (r: ScenarioResult) => void;
};

const TERMINAL = new Set(["ACTIVITY_STATUS_COMPLETED", "ACTIVITY_STATUS_FAILED", "ACTIVITY_STATUS_REJECTED", "ACTIVITY_STATUS_CONSENSUS_NEEDED"]);
// A broken dependency stops the scenario; any other problem is reported and the flow goes on.
const FATAL = new Set(["capture", "error"]);

export async function runOnTarget(o: RunTargetOptions): Promise<RunReport> {
  const started = Date.now();
  const http = new HttpClient(o.pacing);
  const rootKey: ApiKeyPair = { publicKey: o.target.apiPublicKey, privateKey: o.target.apiPrivateKey };
  const report: RunReport = {
    target: { label: o.target.label ?? o.target.url, kind: o.kind, url: o.target.url },
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    ok: false,
    summary: { passed: 0, failed: 0, skipped: 0, invariantsUnavailable: 0 },
    notes: [],
    scenarios: [],
    requests: 0,
    retries: 0,
  };

  const who = await http.post(o.target.url + "/public/v1/query/whoami", JSON.stringify({ organizationId: o.target.organizationId }), { key: rootKey });
  const whoBody = who.body as { organizationName?: string; userId?: string; username?: string } | undefined;
  if (who.status !== 200 || !whoBody?.userId) {
    report.notes.push(`the target rejected its credentials (whoami: ${describeFailure(who)}); no scenario ran`);
    for (const s of o.scenarios) report.scenarios.push(skipped(s, "target credentials rejected"));
    return finish(report, http, started);
  }
  const rootOrg: ScopeOrg = { id: o.target.organizationId, name: whoBody.organizationName ?? "", rootUserId: whoBody.userId, rootUserName: whoBody.username ?? "" };
  const scopeRt: ScopeRuntime = { http, url: o.target.url, rootOrg, rootKey, leftBehind: [] };
  const notEmulator = o.scenarios.some(emulatorOnly) ? await notAnEmulator(o, http) : undefined;

  for (const scenario of o.scenarios) {
    const r = notEmulator && emulatorOnly(scenario) ? skipped(scenario, notEmulator) : await runScenario(o, scenario, scopeRt, http);
    report.scenarios.push(r);
    o.onScenario?.(r);
  }
  if (scopeRt.subOrgUnsupported) report.notes.push(scopeRt.subOrgUnsupported);
  if (scopeRt.leftBehind.length) report.notes.push(`sub-organizations left behind: ${scopeRt.leftBehind.join(", ")}`);
  return finish(report, http, started);
}

/**
 * Why the target is not an emulator (emulator-only scenarios are skipped with this), or
 * nothing when it is one: the embedded emulator always is; a URL target is what its
 * `emulator` flag says, else what a GET of the emulator's clock answers.
 */
async function notAnEmulator(o: RunTargetOptions, http: HttpClient): Promise<string | undefined> {
  const only = "emulator-only (targets: [emulator])";
  if (o.kind === "embedded" || o.target.emulator === true) return undefined;
  if (o.target.emulator === false) return `${only}: the target is a live deployment`;
  let answer: string;
  try {
    const probe = await http.get(o.target.url.replace(/\/$/, "") + EMULATOR_PROBE_PATH);
    if (isEmulatorProbe(probe.status, probe.body)) return undefined;
    answer = `HTTP ${probe.status}`;
  } catch (e) {
    answer = (e as Error).message;
  }
  return `${only}: the target does not answer the emulator's control API (GET ${EMULATOR_PROBE_PATH}: ${answer}), so it is taken for a live deployment`;
}

function finish(report: RunReport, http: HttpClient, started: number): RunReport {
  for (const s of report.scenarios) {
    report.summary[s.outcome === "passed" ? "passed" : s.outcome === "failed" ? "failed" : "skipped"]++;
    for (const st of s.steps) report.summary.invariantsUnavailable += st.invariants.filter((i) => i.outcome === "unavailable").length;
  }
  report.ok = report.summary.failed === 0 && !report.notes.some((n) => n.startsWith("the target rejected"));
  report.requests = http.requests;
  report.retries = http.retries;
  report.durationMs = Date.now() - started;
  return report;
}

function skipped(s: LoadedScenario, reason: string): ScenarioResult {
  return { name: s.name, file: s.file, outcome: "skipped", skipReason: reason, scope: { mode: "root" }, steps: [], problems: [], durationMs: 0 };
}

async function runScenario(o: RunTargetOptions, scenario: LoadedScenario, scopeRt: ScopeRuntime, http: HttpClient): Promise<ScenarioResult> {
  const started = Date.now();
  const usesProxy = scenario.steps.some((s) => s.proxy !== undefined);
  if (usesProxy && !(o.target.proxyUrl && o.target.proxyConfigId)) return skipped(scenario, "needs an auth proxy URL and config id (--proxy-url, --proxy-config-id)");

  const wanted = o.scope && o.scope !== "auto" ? o.scope : (scenario.scope ?? "auto");
  const mode = wanted === "auto" ? (o.autoScope ?? (o.kind === "embedded" ? "root" : "suborg")) : wanted;
  const result: ScenarioResult = { name: scenario.name, file: scenario.file, outcome: "passed", scope: { mode }, steps: [], problems: [], durationMs: 0 };
  let scope;
  try {
    scope = await openScope(scopeRt, mode, scenario.name);
  } catch (e) {
    result.problems.push({ kind: "setup", message: (e as Error).message });
    result.outcome = "failed";
    result.durationMs = Date.now() - started;
    return result;
  }
  result.scope = scope.info;
  const keys = new KeyRing();
  const ctx: InterpolationContext = { vars: {}, captures: {}, keys, org: scope.org, emailDomain: o.emailDomain };
  try {
    ctx.vars = interpolate(scenario.vars ?? {}, ctx) as Record<string, unknown>;
    let stop = false;
    for (const step of scenario.steps) {
      if (stop) {
        result.steps.push({ name: step.name, operation: opLabel(step), outcome: "skipped", problems: [], invariants: [], durationMs: 0 });
        continue;
      }
      const r = await runStep(o, step, ctx, scope.rootKey, http);
      result.steps.push(r);
      if (r.problems.some((p) => FATAL.has(p.kind))) stop = true;
    }
  } catch (e) {
    result.problems.push({ kind: "error", message: (e as Error).message });
  } finally {
    try {
      result.problems.push(...(await scope.close()));
    } catch (e) {
      result.problems.push({ kind: "cleanup", message: `cleanup failed: ${(e as Error).message}` });
    }
  }
  if (result.problems.length || result.steps.some((s) => s.outcome === "failed")) result.outcome = "failed";
  result.durationMs = Date.now() - started;
  return result;
}

const opLabel = (step: Step): string => (step.submit ? `submit ${step.submit}` : step.query ? `query ${step.query}` : step.proxy ? `proxy ${step.proxy}` : `control ${controlCall(step.control!).name}`);

/** An operation step: the stamped request, and the activity polled until it is finished. */
async function sendOperation(o: RunTargetOptions, op: StepOperation, step: Step, ctx: InterpolationContext, rootKey: ApiKeyPair, http: HttpClient): Promise<HttpResult> {
  const key = op.kind === "proxy" || step.as === "none" ? null : step.as?.startsWith("keys.") ? ctx.keys.get(step.as.slice(5)) : rootKey;
  const req = buildRequest(o, op, step, ctx);
  const res = await http.post(req.url, req.body, { key, headers: req.headers });
  return awaitActivity(o, op, res, req.url, key, http);
}

/** A control step: one call to the emulator's control API, unstamped, JSON in and out. */
async function sendControl(o: RunTargetOptions, step: Step, ctx: InterpolationContext, http: HttpClient): Promise<HttpResult> {
  const { action, params } = controlCall(step.control!);
  const url = o.target.url.replace(/\/$/, "") + action.path;
  return action.method === "GET" ? http.get(url) : http.post(url, JSON.stringify(interpolate(params, ctx)), { key: null });
}

function buildRequest(o: RunTargetOptions, op: StepOperation, step: Step, ctx: InterpolationContext): { url: string; body: string; headers: Record<string, string> } {
  const headers = Object.fromEntries(Object.entries(step.headers ?? {}).map(([k, v]) => [k, String(interpolateString(v, ctx))]));
  const orgId = step.organizationId !== undefined ? interpolateString(step.organizationId, ctx) : ctx.org.id;
  let body: string;
  if (step.body !== undefined) body = typeof step.body === "string" ? String(interpolateString(step.body, ctx)) : JSON.stringify(interpolate(step.body, ctx));
  else {
    const params = interpolate(step.params ?? {}, ctx) as Record<string, unknown>;
    if (op.kind === "submit") body = JSON.stringify({ type: op.contract.activityType, timestampMs: String(Date.now()), organizationId: orgId, parameters: params });
    else if (op.kind === "query") body = JSON.stringify({ organizationId: orgId, ...params });
    else body = JSON.stringify(params);
  }
  if (op.kind === "proxy") {
    headers["X-Auth-Proxy-Config-Id"] ??= o.target.proxyConfigId!;
    return { url: o.target.proxyUrl!.replace(/\/$/, "") + op.path, body, headers };
  }
  return { url: o.target.url.replace(/\/$/, "") + op.path, body, headers };
}

async function runStep(o: RunTargetOptions, step: Step, ctx: InterpolationContext, rootKey: ApiKeyPair, http: HttpClient): Promise<StepResult> {
  const started = Date.now();
  const op = step.control === undefined ? stepOperation(step) : undefined;
  const r: StepResult = { name: step.name, operation: opLabel(step), outcome: "passed", problems: [], invariants: [], durationMs: 0 };
  const done = () => {
    r.outcome = r.problems.length ? "failed" : "passed";
    r.durationMs = Date.now() - started;
    return r;
  };
  let res: HttpResult;
  try {
    res = op ? await sendOperation(o, op, step, ctx, rootKey, http) : await sendControl(o, step, ctx, http);
  } catch (e) {
    r.problems.push({ kind: "error", message: (e as Error).message });
    return done();
  }
  const body = res.body as Record<string, any> | undefined;
  r.response = { status: res.status, body };
  r.status = res.status;
  if (res.status !== 200 && typeof body?.code === "number") r.code = body.code;
  if (typeof body?.activity?.status === "string") r.activityStatus = body.activity.status;

  const exp = step.expect ?? {};
  const wantStatus = exp.status ?? 200;
  if (res.status !== wantStatus) {
    const msg = typeof body?.message === "string" ? `: ${body.message}` : "";
    r.problems.push({ kind: "status", message: `expected HTTP ${wantStatus}, got ${res.status}${r.code !== undefined ? ` (code ${r.code})` : ""}${msg}` });
  }
  if (typeof body !== "object" || body === null) r.problems.push({ kind: "contract", message: `response is not a JSON object: ${String(body).slice(0, 120)}` });
  else if (op) {
    // The control API has no published contract: a control step checks only what it expects.
    const schema = res.status === 200 ? op.contract.response : op.kind === "proxy" ? proxySchemas.rpcStatus : coordinatorSchemas.rpcStatus;
    const schemaName = res.status === 200 ? op.contract.responseName : "rpcStatus";
    for (const p of checkResponse(schema, body)) r.problems.push({ kind: "contract", path: p.path, message: `${schemaName}: ${p.problem}` });
  }
  if (exp.code !== undefined && body?.code !== exp.code) r.problems.push({ kind: "code", path: "code", message: `expected code ${exp.code}, got ${body?.code ?? "(none)"}` });
  if (exp.activityStatus !== undefined && body?.activity?.status !== exp.activityStatus) {
    const failure = body?.activity?.failure?.message ? ` (${body.activity.failure.message})` : "";
    r.problems.push({ kind: "activityStatus", path: "activity.status", message: `expected ${exp.activityStatus}, got ${body?.activity?.status ?? "(no activity)"}${failure}` });
  }

  const names = { resultKey: op?.contract.resultKey, intentKey: op?.contract.intentKey };
  const withResponse: InterpolationContext = { ...ctx, response: body };
  for (const [template, matcher] of Object.entries(exp.fields ?? {})) {
    let path = template;
    try {
      path = expandShorthand(String(interpolateString(template, withResponse)), names);
      const value = getPath(body, path);
      const issues = matchField(matcher, {
        value,
        captured: (name) => {
          const [head, ...rest] = name.split(".");
          return rest.length ? getPath(ctx.captures[head!], rest.join(".")) : ctx.captures[head!];
        },
        interpolate: (v) => interpolate(v, withResponse),
      });
      for (const m of issues) r.problems.push({ kind: "field", path, message: m });
    } catch (e) {
      r.problems.push({ kind: "field", path, message: (e as Error).message });
    }
  }
  for (const inv of step.invariants ?? []) {
    try {
      const args = interpolate(inv.args ?? {}, { ...withResponse, secrets: true }) as Record<string, unknown>;
      const out = await runInvariant(inv.check, args);
      r.invariants.push({ check: inv.check, ...out });
      if (out.outcome === "fail") r.problems.push({ kind: "invariant", path: inv.check, message: out.message });
    } catch (e) {
      r.invariants.push({ check: inv.check, outcome: "unavailable", message: `inputs missing: ${(e as Error).message}` });
    }
  }
  if (!r.problems.some((p) => p.kind === "status")) {
    for (const [name, template] of Object.entries(step.capture ?? {})) {
      let path: string;
      try {
        path = expandShorthand(String(interpolateString(template, withResponse)), names);
      } catch (e) {
        r.problems.push({ kind: "capture", path: template, message: (e as Error).message });
        continue;
      }
      const value = getPath(body, path);
      if (value === undefined) r.problems.push({ kind: "capture", path, message: `nothing to capture as "${name}"` });
      else ctx.captures[name] = value;
    }
  }
  return done();
}

/** A submit the target has not finished yet is polled with get_activity, like the SDK does. */
async function awaitActivity(o: RunTargetOptions, op: StepOperation, res: HttpResult, url: string, key: ApiKeyPair | null, http: HttpClient): Promise<HttpResult> {
  const act = (res.body as { activity?: { id?: string; status?: string; organizationId?: string } } | undefined)?.activity;
  if (op.kind !== "submit" || res.status !== 200 || !act?.id || !act.status || TERMINAL.has(act.status)) return res;
  const getUrl = url.replace(/\/public\/v1\/submit\/[^/]+$/, "/public/v1/query/get_activity");
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, o.pollIntervalMs ?? 1000));
    const polled = await http.post(getUrl, JSON.stringify({ organizationId: act.organizationId, activityId: act.id }), { key });
    const status = (polled.body as { activity?: { status?: string } } | undefined)?.activity?.status;
    if (polled.status !== 200 || (status && TERMINAL.has(status))) return polled;
  }
  return res;
}
