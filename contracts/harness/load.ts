/**
 * Loads scenario files: YAML -> zod-validated scenarios, then the checks zod cannot do
 * (operations exist, captures and variables are defined before use, invariants are
 * registered, paths parse). Every error names the file, line, step and field.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { emulatorOnly, scenarioSchema, type LoadedScenario, type Scenario, type Step } from "./format.js";
import { GENERATORS, references } from "./interpolate.js";
import { expandShorthand, parsePath } from "./json-path.js";
import { lookupOperation, operationNames, stepOperationLabel } from "./operations.js";
import { invariantNames } from "./invariants/index.js";

export class ScenarioLoadError extends Error {
  constructor(
    readonly file: string,
    readonly problems: { step?: string; field: string; line?: number; message: string }[],
  ) {
    super(problems.map((p) => `${file}${p.line ? `:${p.line}` : ""}: ${p.step ? `${p.step}: ` : ""}${p.field ? `${p.field}: ` : ""}${p.message}`).join("\n"));
    this.name = "ScenarioLoadError";
  }
}

/** Files to load from a list of files and directories (directories: every *.yaml / *.yml, sorted). */
export function scenarioFiles(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort()) if (/\.ya?ml$/.test(f)) out.push(join(p, f));
    } else out.push(p);
  }
  return out;
}

export function loadScenarios(paths: string[]): LoadedScenario[] {
  const all = scenarioFiles(paths).map((f) => loadScenarioFile(f));
  const seen = new Map<string, string>();
  for (const s of all) {
    const before = seen.get(s.name);
    if (before) throw new ScenarioLoadError(s.file, [{ field: "name", message: `scenario name "${s.name}" is also used by ${before}` }]);
    seen.set(s.name, s.file);
  }
  return all;
}

export function loadScenarioFile(file: string): LoadedScenario {
  return parseScenario(readFileSync(file, "utf8"), relative(process.cwd(), file) || file);
}

export function parseScenario(source: string, file: string): LoadedScenario {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: true });
  if (doc.errors.length) {
    // The first error is the cause; the rest are usually its echoes.
    const e = doc.errors[0]!;
    throw new ScenarioLoadError(file, [{ field: "", line: e.linePos?.[0]?.line, message: `YAML: ${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}` }]);
  }
  const raw = doc.toJS();
  const lineOf = (path: PropertyKey[]): number | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n) as (string | number)[], true) as { range?: [number, number] } | undefined;
      if (node && typeof node === "object" && node.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const stepLabel = (path: PropertyKey[]): string | undefined => {
    if (path[0] !== "steps" || typeof path[1] !== "number") return undefined;
    const name = (raw?.steps?.[path[1]] as { name?: unknown } | undefined)?.name;
    return `step ${path[1] + 1}${typeof name === "string" ? ` "${name}"` : ""}`;
  };
  const fieldOf = (path: PropertyKey[]): string =>
    (path[0] === "steps" && typeof path[1] === "number" ? path.slice(2) : path).map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(/\.\[/g, "[");

  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ScenarioLoadError(
      file,
      parsed.error.issues.map((i) => ({ step: stepLabel(i.path), field: fieldOf(i.path), line: lineOf(i.path), message: issueText(i) })),
    );
  }
  const problems = semanticProblems(parsed.data).map((p) => ({ step: stepLabel(p.path), field: fieldOf(p.path), line: lineOf(p.path), message: p.message }));
  if (problems.length) throw new ScenarioLoadError(file, problems);
  return { ...parsed.data, file };
}

function issueText(i: { code: string; message: string; keys?: string[] }): string {
  if (i.code === "unrecognized_keys" && i.keys) return `unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.join(", ")}`;
  return i.message.replace(/^Invalid input: /, "");
}

type Problem = { path: PropertyKey[]; message: string };

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** Up to three names close to `name`, for "did you mean". */
function closest(name: string, names: string[]): string[] {
  return names
    .map((n) => ({ n, d: distance(name, n) }))
    .filter((x) => x.d <= Math.max(3, name.length / 3))
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map((x) => x.n);
}

function semanticProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const vars = new Set(Object.keys(s.vars ?? {}));
  const checkRefs = (value: unknown, path: PropertyKey[], captures: Set<string>, allowResponse: boolean, allowSecrets = false) => {
    for (const ref of references(value)) {
      if (ref in GENERATORS) continue;
      const [ns, name] = ref.split(/[.[]/, 2);
      if (ns === "captures" && !captures.has(name ?? "")) out.push({ path, message: `\${${ref}}: no earlier step captures "${name}"` });
      else if (ns === "vars" && !vars.has(name ?? "")) out.push({ path, message: `\${${ref}}: no variable "${name}" in vars` });
      else if (ns === "response" && !allowResponse) out.push({ path, message: `\${${ref}}: \${response...} is only available in expect and invariants` });
      else if (ns === "keys" && /^keys\.[A-Za-z0-9_-]+\.privateKey$/.test(ref) && !allowSecrets) out.push({ path, message: `\${${ref}}: private keys are only available in invariant args` });
      else if (ns === "keys" && !/^keys\.[A-Za-z0-9_-]+\.(publicKey|publicKeyUncompressed|privateKey)$/.test(ref)) out.push({ path, message: `\${${ref}}: use \${keys.NAME.publicKey} or \${keys.NAME.publicKeyUncompressed}` });
      else if (!["captures", "vars", "response", "keys", "org"].includes(ns ?? "")) out.push({ path, message: `\${${ref}}: unknown reference` });
      else if (ns === "org" && !["org.id", "org.name", "org.rootUserId", "org.rootUserName"].includes(ref)) out.push({ path, message: `\${${ref}}: org has id, name, rootUserId, rootUserName` });
    }
  };
  checkRefs(s.vars ?? {}, ["vars"], new Set(), false);
  const captures = new Set<string>();
  s.steps.forEach((step: Step, i) => {
    const at = (...p: PropertyKey[]) => ["steps", i, ...p];
    const called = stepOperationLabel(step);
    const op = called && lookupOperation(called.kind, called.name);
    if (called && !op) {
      const near = closest(called.name, operationNames(called.kind));
      out.push({ path: at(called.kind), message: `unknown ${called.kind} operation "${called.name}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}` });
    }
    if (!called) {
      const [action] = Object.keys(step.control ?? {});
      if (!emulatorOnly(s)) {
        out.push({ path: at("control"), message: `control ${action} calls the emulator's control API, which a live deployment does not have: only an emulator-only scenario (targets: [emulator]) may use it` });
      }
      for (const field of ["as", "organizationId", "params", "body", "headers", "invariants"] as const) {
        if (step[field] !== undefined) out.push({ path: at(field), message: `a control step takes no ${field}: its parameters go under control.${action}` });
      }
      if (step.expect?.code !== undefined || step.expect?.activityStatus !== undefined) out.push({ path: at("expect"), message: "a control step checks status and fields only (no code or activityStatus)" });
    }
    checkRefs([step.params, step.body, step.organizationId, step.headers], at(step.body !== undefined ? "body" : "params"), captures, false);
    if (step.control !== undefined) checkRefs(step.control, at("control"), captures, false);
    checkRefs(step.expect ?? {}, at("expect"), captures, true);
    checkRefs(step.invariants ?? [], at("invariants"), captures, true, true);
    const names = { resultKey: op?.contract.resultKey, intentKey: op?.contract.intentKey };
    const checkPath = (p: string, path: PropertyKey[]) => {
      try {
        parsePath(expandShorthand(p.replace(/\$\{[^}]*\}/g, "x"), names));
      } catch (e) {
        out.push({ path, message: (e as Error).message });
      }
    };
    for (const [p, m] of Object.entries(step.expect?.fields ?? {})) {
      checkPath(p, at("expect", "fields", p));
      if (m && typeof m === "object" && "equalsCaptured" in m && m.equalsCaptured !== undefined && !captures.has(m.equalsCaptured.split(/[.[]/)[0]!)) {
        out.push({ path: at("expect", "fields", p, "equalsCaptured"), message: `no earlier step captures "${m.equalsCaptured}"` });
      }
    }
    (step.invariants ?? []).forEach((inv, j) => {
      if (!invariantNames().includes(inv.check)) out.push({ path: at("invariants", j, "check"), message: `unknown invariant "${inv.check}" (registered: ${invariantNames().join(", ")})` });
    });
    for (const [name, p] of Object.entries(step.capture ?? {})) {
      checkPath(p, at("capture", name));
      checkRefs(p, at("capture", name), captures, true);
      captures.add(name);
    }
  });
  return out;
}
