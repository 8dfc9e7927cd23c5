import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseScenario, ScenarioLoadError, loadScenarios } from "./load.js";
import { schemaText, SCHEMA_PATH } from "./write-schema.js";
import { packageRoot } from "../../emulator/core/package-root.js";

const loadError = (src: string): ScenarioLoadError => {
  try {
    parseScenario(src, "x.yaml");
  } catch (e) {
    if (e instanceof ScenarioLoadError) return e;
    throw e;
  }
  throw new Error("loaded");
};

describe("scenario loading", () => {
  it("loads every scenario in scenarios/ with unique names", () => {
    const all = loadScenarios([join(packageRoot(), "scenarios")]);
    expect(all.length).toBeGreaterThanOrEqual(9);
    expect(new Set(all.map((s) => s.name)).size).toBe(all.length);
  });

  it("names file, line, step and field of a schema error", () => {
    const e = loadError("name: t\nsteps:\n  - name: one\n    query: whoami\n  - name: two\n    query: whoami\n    expect:\n      status: 'x'\n");
    expect(e.message).toBe('x.yaml:8: step 2 "two": expect.status: expected number, received string');
  });

  it("rejects unknown fields, a step with two kinds, and bad 'as'", () => {
    expect(loadError("name: t\nsteps:\n  - name: a\n    query: whoami\n    expcet: {}\n").message).toMatch(/step 1 "a": unknown field expcet/);
    expect(loadError("name: t\nsteps:\n  - name: a\n    query: whoami\n    submit: create_users\n").message).toMatch(/exactly one of submit, query, proxy, control \(found submit, query\)/);
    expect(loadError("name: t\nsteps:\n  - name: a\n    query: whoami\n    as: admin\n").message).toMatch(/:5: step 1 "a": as: expected root, none or keys.NAME/);
  });

  it("rejects unknown operations with a suggestion", () => {
    expect(loadError("name: t\nsteps:\n  - name: a\n    submit: create_user\n").message).toMatch(/unknown submit operation "create_user" \(did you mean .*create_users/);
    expect(loadError("name: t\nsteps:\n  - name: a\n    proxy: nope\n").message).toMatch(/unknown proxy operation/);
  });

  it("rejects captures and variables used before they exist", () => {
    const e = loadError(
      "name: t\nsteps:\n  - name: a\n    query: get_user\n    params: { userId: '${captures.id}' }\n  - name: b\n    query: whoami\n    capture: { id: userId }\n    expect:\n      fields:\n        userId: { equalsCaptured: nope }\n        username: '${vars.missing}'\n",
    );
    expect(e.problems.map((p) => p.message)).toEqual([
      '${captures.id}: no earlier step captures "id"',
      '${vars.missing}: no variable "missing" in vars',
      'no earlier step captures "nope"',
    ]);
    expect(e.problems[0]!.step).toBe('step 1 "a"');
  });

  it("rejects unknown invariants, bad paths and $result on a query", () => {
    const e = loadError(
      "name: t\nsteps:\n  - name: a\n    query: whoami\n    invariants: [{ check: nope }]\n    capture: { x: '$result.y' }\n    expect: { fields: { 'a..b': 1 } }\n",
    );
    const msgs = e.problems.map((p) => p.message).join("\n");
    expect(msgs).toMatch(/unknown invariant "nope" \(registered: mnemonicDerives, signatureVerifies, transactionSignedBy\)/);
    expect(msgs).toMatch(/misplaced "\."/);
    expect(msgs).toMatch(/\$result needs a submit step/);
  });

  it("allows a run key's private key in invariant args only", () => {
    const e = loadError(
      "name: t\nsteps:\n  - name: a\n    query: get_user\n    params: { userId: '${keys.k.privateKey}' }\n    invariants: [{ check: mnemonicDerives, args: { embeddedKey: '${keys.k.privateKey}', t: '${keys.k.publicKeyUncompressed}' } }]\n",
    );
    expect(e.problems.map((p) => p.message)).toEqual(["${keys.k.privateKey}: private keys are only available in invariant args"]);
    expect(e.message).toMatch(/step 1 "a": params/);
  });

  it("takes a control step in an emulator-only scenario only, naming the step", () => {
    const step = "steps:\n  - name: tick\n    control: { clock: { advanceMs: 1000 } }\n";
    expect(parseScenario(`name: t\ntargets: [emulator]\n${step}`, "x.yaml").steps[0]!.control).toEqual({ clock: { advanceMs: 1000 } });
    const refusal =
      "x.yaml:5: step 1 \"tick\": control: control clock calls the emulator's control API, which a live deployment does not have: only an emulator-only scenario (targets: [emulator]) may use it";
    expect(loadError(`name: t\n${step}`).message).toBe(refusal.replace(":5:", ":4:"));
    expect(loadError(`name: t\ntargets: [emulator, live]\n${step}`).message).toBe(refusal);
  });

  it("refuses a control step with request fields, two actions, an unknown action or bad parameters", () => {
    const only = (s: string) => loadError(`name: t\ntargets: [emulator]\nsteps:\n  - name: tick\n${s}`).message;
    expect(only("    control: { clock: { advanceMs: 1 } }\n    params: { a: 1 }\n")).toMatch(/step 1 "tick": params: a control step takes no params: its parameters go under control\.clock/);
    expect(only("    control: { clock: { advanceMs: 1 } }\n    expect: { code: 3 }\n")).toMatch(/a control step checks status and fields only/);
    expect(only("    control: { clock: { advanceMs: 1 }, info: {} }\n")).toMatch(/control: a control step names exactly one action \(clock, info\)/);
    expect(only("    control: { reset: {} }\n")).toMatch(/control: unknown field reset/);
    expect(only("    control: { clock: { advanceMs: -1 } }\n")).toMatch(/control\.clock\.advanceMs: /);
    expect(only("    control: { clock: {} }\n")).toMatch(/control\.clock: give exactly one of advanceMs and set/);
    expect(only("    control: { clock: { advanceMs: 1 } }\n    query: whoami\n")).toMatch(/exactly one of submit, query, proxy, control \(found query, control\)/);
  });

  it("takes targets of emulator and live only", () => {
    expect(loadError("name: t\ntargets: [staging]\nsteps:\n  - name: a\n    query: whoami\n").message).toMatch(/x\.yaml:2: targets\[0\]: /);
    expect(loadError("name: t\ntargets: []\nsteps:\n  - name: a\n    query: whoami\n").message).toMatch(/targets: /);
  });

  it("reports YAML syntax errors with their line", () => {
    expect(loadError("name: t\nsteps:\n  - name: a\n    capture: { x: a[0] }\n").message).toMatch(/^x\.yaml:4: YAML: /);
  });

  it("keeps scenarios/scenario.schema.json in step with the zod format", () => {
    expect(readFileSync(SCHEMA_PATH, "utf8")).toBe(schemaText());
  });
});
