/**
 * The parts of the emulator and who may import whom (ARCHITECTURE.md "Parts and rules"),
 * counting every import the TypeScript compiler sees (./import-graph.ts `importGraph`: type-only
 * imports, `import()` and module augmentations too):
 *
 * - the core (emulator/core/) imports only the core, the primitives and contracts/: no family,
 *   not even a type;
 * - a primitive imports only primitives, contracts/ and the core's foundation;
 * - a family (emulator/families/<name>/) imports the core, the primitives, contracts/, its own
 *   folder and another family's `index.ts` (what that family exports on purpose; a subfolder's
 *   `index.ts` is a second entry loaded with `import()`, e.g. the chains' local DeFi), never
 *   another family's inner files; the families' own graph has no cycle;
 * - a family's declaration (`family.ts`) is imported only by emulator/families.ts;
 * - outside a family, nothing imports its inner files: the root (index.ts, families.ts, the
 *   CLI, fixtures, record, testing) uses a family only through its `index.ts` (or a subfolder's),
 *   except families.ts, which imports each family's `family.ts` to compose them;
 * - the core, a family and the root use only their own members of `rt.families` and of the
 *   store (the root: none of a family's); another family's go through its index.ts;
 * - a table's SQL is written in one part, the one whose repository owns it (the core or a
 *   family; the frozen baseline schema aside): no raw SQL on another part's table;
 * - nothing below the root imports the root;
 * - a unit test beside the code keeps its part's rules, but may compose a whole instance from
 *   the root (families.ts, index.ts, fixtures.ts).
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, cycles, importGraph } from "./import-graph.js";

/** The core's foundation: what a primitive may use of the core. */
const FOUNDATION = ["errors.ts", "error-catalogue.ts", "input-error.ts", "ids.ts", "random.ts", "lazy-module.ts", "package-root.ts", "lib/"].map((f) => `emulator/core/${f}`);
const PRIMITIVES = ["curves", "derivation", "signing", "bundles", "policy", "limits", "trust"].map((d) => `emulator/${d}/`);
/** Imports of the root from below, each with why. */
const ROOT_IMPORTED_BY: { from: string; to: string; reason: string }[] = [
  { from: "contracts/harness/index.ts", to: "emulator/index.ts", reason: "the scenario harness starts an emulator in process (import() at run time)" },
];
/** The root: the composition of an instance and everything around it (the CLI, the fixtures, recording, the test helpers). */
const ROOT_PARTS = ["emulator/index.ts", "emulator/families.ts", "emulator/parity.ts", "emulator/fixtures.ts", "emulator/fixtures/", "emulator/record/", "emulator/testing/"];
const isRootPart = (file: string) => ROOT_PARTS.some((p) => (p.endsWith("/") ? file.startsWith(p) : file === p)) || /^emulator\/cli[-.]/.test(file);

export type Part = { kind: "core" | "primitive" | "family" | "root" | "contracts" | "unplaced"; family?: string };

/** The part a source belongs to. */
export function partOf(file: string): Part {
  if (file.startsWith("contracts/")) return { kind: "contracts" };
  if (file.startsWith("emulator/core/")) return { kind: "core" };
  if (PRIMITIVES.some((p) => file.startsWith(p))) return { kind: "primitive" };
  const family = /^emulator\/families\/([^/]+)\//.exec(file);
  if (family) return { kind: "family", family: family[1] };
  return isRootPart(file) ? { kind: "root" } : { kind: "unplaced" };
}

/** The frozen baseline (every table the first 30 versions created) and SQLite's own tables, which any part may read. */
const SQL_ANYWHERE = { files: ["emulator/core/store/schema.ts"], tables: ["sqlite_master", "sqlite_schema", "json_each", "json_tree"] };

/** The tables a source's string literals name in SQL (after FROM, INTO, UPDATE, JOIN, TABLE, an index's ON). */
function tablesInSql(text: string): string[] {
  const tables = new Set<string>();
  for (const [, , literal] of text.matchAll(/(["'`])((?:(?!\1)[\s\S])*?)\1/g)) {
    if (!/\b(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP)\b/.test(literal!)) continue;
    const names = /\b(?:FROM|INTO|UPDATE|JOIN|TABLE(?: IF (?:NOT )?EXISTS)?|INDEX(?: IF (?:NOT )?EXISTS)? \w+ ON)\s+([a-z_][a-z0-9_]*)/g;
    for (const [, table] of literal!.matchAll(names)) tables.add(table!);
  }
  return [...tables];
}

const isFoundation = (file: string) => FOUNDATION.some((f) => (f.endsWith("/") ? file.startsWith(f) : file === f));
const familyIndex = (name: string) => `emulator/families/${name}/index.ts`;
/** A family's public modules: its index.ts, and a subfolder's (an entry loaded lazily). */
const isPublic = (file: string) => file.startsWith("emulator/families/") && file.endsWith("/index.ts");

/** Why `from` may not import `to`, or undefined when it may. */
export function refusal(from: string, to: string): string | undefined {
  const a = partOf(from);
  const b = partOf(to);
  if (b.kind === "root" && a.kind !== "root" && !ROOT_IMPORTED_BY.some((r) => r.from === from && r.to === to)) return "nothing below the root imports it";
  switch (a.kind) {
    case "core":
      return b.kind === "core" || b.kind === "primitive" || b.kind === "contracts" ? undefined : "the core imports no family";
    case "primitive":
      return b.kind === "primitive" || b.kind === "contracts" || isFoundation(to) ? undefined : "a primitive imports only primitives and the core's foundation";
    case "contracts":
      return b.kind === "contracts" || isFoundation(to) || b.kind === "root" ? undefined : "contracts/ imports only the core's foundation";
    case "family":
      if (b.kind === "family" && b.family !== a.family) return isPublic(to) ? undefined : `a family uses another only through its index.ts (${familyIndex(b.family!)})`;
      if (b.kind === "family" && to.endsWith("/family.ts") && from !== to) return "a family's declaration is imported only by emulator/families.ts";
      return undefined;
    default:
      if (b.kind !== "family") return undefined;
      if (to.endsWith("/family.ts")) return from === "emulator/families.ts" ? undefined : "a family's declaration is imported only by emulator/families.ts";
      return isPublic(to) ? undefined : `outside a family, a family is used only through its index.ts (${familyIndex(b.family!)}), not its inner modules`;
  }
}

describe("the parts of emulator/ and contracts/", () => {
  const graph = importGraph();
  const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

  it("place every source in a part: the core, a primitive, a family, the root or contracts/", () => {
    const unplaced = [...graph.keys()].filter((f) => partOf(f).kind === "unplaced");
    expect(unplaced, "sources in no part (place them, and in ARCHITECTURE.md)").toEqual([]);
  });

  it("import only what their part may (types included)", () => {
    expect(graph.size).toBeGreaterThan(300); // the scan saw both trees
    const found = edges.flatMap((e) => {
      const why = refusal(e.from, e.to);
      return why ? [`${e.from}\n    -> ${e.to}: ${why}`] : [];
    });
    expect(found, `imports across the parts' boundaries (ARCHITECTURE.md "Parts and rules"):\n${found.join("\n")}\n`).toEqual([]);
  });

  it("the families use one another without a cycle", () => {
    const families = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const a = partOf(from);
      const b = partOf(to);
      if (a.kind !== "family" || b.kind !== "family" || a.family === b.family) continue;
      const uses = families.get(a.family!) ?? families.set(a.family!, new Set()).get(a.family!)!;
      uses.add(b.family!);
    }
    const asGraph = new Map([...families].map(([k, v]) => [k, [...v].sort()]));
    expect(cycles(asGraph)).toEqual([]);
  });

  it("keep each family's state and repositories to that family (the others and the root go through its index.ts)", () => {
    const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
    const owner = new Map<string, string>(); // "families.<member>" or "store.<member>" -> family
    for (const file of graph.keys()) {
      const part = partOf(file);
      if (part.kind !== "family") continue;
      for (const [, kind, body] of read(file).matchAll(/interface (FamilyStates|FamilyRepositories) \{([\s\S]*?)\n {2}\}/g))
        for (const [, member] of body!.matchAll(/^ {4}(\w+)\??:/gm)) owner.set(`${kind === "FamilyStates" ? "families" : "store"}.${member}`, part.family!);
    }
    expect(owner.size).toBeGreaterThan(20); // the scan found the declarations
    const strip = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    const found: string[] = [];
    for (const file of graph.keys()) {
      const part = partOf(file);
      if (part.kind !== "core" && part.kind !== "family" && part.kind !== "root") continue;
      for (const [use] of strip(read(file)).matchAll(/\b(?:families|store)\.\w+/g)) {
        const family = owner.get(use);
        if (family && family !== part.family) found.push(`${file}: ${use} (the ${family} family's)`);
      }
    }
    expect(found, "uses of a family's state or repository outside that family (offer what is needed through the family's index.ts)").toEqual([]);
  });

  it("write each table's SQL in the one part that owns it (no raw SQL on another part's table)", () => {
    /** table -> the files whose SQL names it, by owner: "core", a family's name, or "" (a part that owns no table: the root, a primitive). */
    const writers = new Map<string, Map<string, string[]>>();
    for (const file of graph.keys()) {
      if (SQL_ANYWHERE.files.includes(file)) continue;
      const part = partOf(file);
      const owner = part.kind === "family" ? part.family! : part.kind === "core" ? "core" : "";
      for (const table of tablesInSql(readFileSync(join(ROOT, file), "utf8"))) {
        if (SQL_ANYWHERE.tables.includes(table)) continue;
        const byOwner = writers.get(table) ?? writers.set(table, new Map()).get(table)!;
        byOwner.set(owner, [...(byOwner.get(owner) ?? []), file]);
      }
    }
    expect(writers.size).toBeGreaterThan(40); // the scan found the repositories' SQL
    const shared = [...writers].filter(([, byOwner]) => byOwner.size > 1 || byOwner.has("")).map(([table, byOwner]) => `${table}: ${[...byOwner.values()].flat().join(", ")}`);
    expect(shared, "tables whose SQL is written outside the part that owns them (read them through the owner's repository)").toEqual([]);
  });

  it("hold the unit tests beside the code to their part's rules (a test may also compose a whole instance from the root)", () => {
    const refused: string[] = [];
    for (const [test, imports] of importGraph(["emulator", "contracts"], { unitTests: true })) {
      for (const to of imports) {
        const why = partOf(to).kind === "root" ? undefined : refusal(test.replace(/\.test\.ts$/, ".ts"), to);
        if (why) refused.push(`${test} -> ${to}: ${why}`);
      }
    }
    expect(refused, "unit tests that import what their part may not (test it beside the module it tests, or through the family's index.ts)").toEqual([]);
  });

  it("lists the imports of the root from below that still hold", () => {
    const stale = ROOT_IMPORTED_BY.filter((r) => !graph.get(r.from)?.includes(r.to));
    expect(stale).toEqual([]);
  });

  it("are the parts ARCHITECTURE.md names", () => {
    const doc = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
    const absent = [...PRIMITIVES, ...FOUNDATION].map((p) => p.replace(/^emulator\/(core\/)?/, "")).filter((name) => !doc.includes(`\`${name}\``));
    expect(absent, "names ARCHITECTURE.md does not mention (in backticks)").toEqual([]);
  });
});

describe("the boundary check", () => {
  it("refuses the core a family, even a type of one; lets a family use another's index.ts only", () => {
    expect(refusal("emulator/core/engine/engine.ts", "emulator/families/webhooks/state.ts")).toMatch(/the core imports no family/);
    expect(refusal("emulator/core/engine/engine.ts", "emulator/core/store/index.ts")).toBeUndefined();
    expect(refusal("emulator/families/earn/activities.ts", "emulator/families/chains/index.ts")).toBeUndefined();
    expect(refusal("emulator/families/earn/activities.ts", "emulator/families/chains/sending.ts")).toMatch(/only through its index.ts/);
    expect(refusal("emulator/families/earn/activities.ts", "emulator/families/chains/defi/index.ts")).toBeUndefined();
    expect(refusal("emulator/families/earn/activities.ts", "emulator/index.ts")).toMatch(/nothing below the root/);
    expect(refusal("emulator/signing/ethereum.ts", "emulator/core/errors.ts")).toBeUndefined();
    expect(refusal("emulator/signing/ethereum.ts", "emulator/core/store/index.ts")).toMatch(/primitive/);
    expect(refusal("emulator/cli.ts", "emulator/families/chains/family.ts")).toMatch(/only by emulator\/families.ts/);
    expect(refusal("emulator/families.ts", "emulator/families/chains/family.ts")).toBeUndefined();
  });

  it("finds the tables a source's SQL names", () => {
    const source = 'db.prepare("SELECT w.id FROM wallets w JOIN wallet_accounts a ON a.wallet_id = w.id").all();\n' + "run(`INSERT INTO mailbox (id) VALUES (?)`); const label = 'from here';\n" + 'exec("CREATE INDEX IF NOT EXISTS otps_by_org ON otps(org_id)");';
    expect(tablesInSql(source).sort()).toEqual(["mailbox", "otps", "wallet_accounts", "wallets"]);
  });

  it("lets the root use a family through its index.ts only (families.ts: its family.ts too)", () => {
    expect(refusal("emulator/fixtures/seed.ts", "emulator/families/wallets/index.ts")).toBeUndefined();
    expect(refusal("emulator/fixtures/seed.ts", "emulator/families/wallets/accounts.ts")).toMatch(/outside a family, a family is used only through its index.ts \(emulator\/families\/wallets\/index.ts\)/);
    expect(refusal("emulator/index.ts", "emulator/families/control/state.ts")).toMatch(/only through its index.ts/);
    expect(refusal("emulator/cli.ts", "emulator/families/chains/defi/index.ts")).toBeUndefined();
    expect(refusal("emulator/families.ts", "emulator/families/chains/networks.ts")).toMatch(/only through its index.ts/);
  });
});
