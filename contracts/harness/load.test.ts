import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseScenario, ScenarioLoadError, loadScenarios } from "./load.js";
import { schemaText, SCHEMA_PATH } from "./write-schema.js";
import { packageRoot } from "../../emulator/package-root.js";

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
    expect(loadError("name: t\nsteps:\n  - name: a\n    query: whoami\n    submit: create_users\n").message).toMatch(/exactly one of submit, query, proxy \(found submit, query\)/);
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

  it("reports YAML syntax errors with their line", () => {
    expect(loadError("name: t\nsteps:\n  - name: a\n    capture: { x: a[0] }\n").message).toMatch(/^x\.yaml:4: YAML: /);
  });

  it("keeps scenarios/scenario.schema.json in step with the zod format", () => {
    expect(readFileSync(SCHEMA_PATH, "utf8")).toBe(schemaText());
  });
});
