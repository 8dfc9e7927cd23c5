/**
 * The layer order ARCHITECTURE.md states: a module imports (at run time) only modules of its
 * own layer or of layers below it. The graph (./import-graph.ts) covers every non-test source
 * of emulator/ and contracts/; type-only imports and dynamic `import()` are not edges.
 *
 * LAYERS mirrors the document's table, bottom first. Each entry is a folder (ending in `/`) or
 * a file; a file takes the layer of its longest matching entry, so a file named on its own
 * overrides its folder. A source no entry covers fails the test: place it in a layer (and in
 * ARCHITECTURE.md). An import that climbs is a failure unless ALLOWED lists it with why; an
 * ALLOWED entry that no longer climbs fails as stale.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, runtimeImportGraph } from "./import-graph.js";

type Layer = { name: string; holds: string[] };

export const LAYERS: Layer[] = [
  {
    name: "foundation",
    holds: [
      "emulator/errors.ts",
      "emulator/input-error.ts",
      "emulator/error-catalogue.ts",
      "emulator/ids.ts",
      "emulator/clock.ts",
      "emulator/random.ts",
      "emulator/lazy-module.ts",
      "emulator/package-root.ts",
      "emulator/runtime.ts",
      "emulator/lib/",
    ],
  },
  { name: "contracts", holds: ["contracts/"] },
  { name: "vocabulary", holds: ["emulator/operations/define.ts", "emulator/operations/contexts.ts", "emulator/operations/not-emulated.ts"] },
  {
    name: "primitives",
    holds: [
      "emulator/curves/",
      "emulator/bundles/",
      "emulator/derivation/",
      "emulator/signing/",
      "emulator/policy/",
      "emulator/limits/",
      "emulator/events/",
      "emulator/trust/",
    ],
  },
  { name: "store", holds: ["emulator/store/"] },
  {
    name: "services",
    holds: ["emulator/auth/", "emulator/domain/", "emulator/keyring.ts", "emulator/views/", "emulator/proofs/"],
  },
  {
    name: "features",
    holds: ["emulator/networks/", "emulator/onramp/", "emulator/tvc/", "emulator/webhooks/", "emulator/velocity/", "emulator/fixtures/", "emulator/fixtures.ts"],
  },
  { name: "engine", holds: ["emulator/activities/"] },
  { name: "operations", holds: ["emulator/activities/handlers/", "emulator/activities/votes.ts", "emulator/queries/"] },
  {
    name: "surface",
    holds: [
      "emulator/app.ts",
      "emulator/http/",
      "emulator/proxy/",
      "emulator/control/",
      "emulator/frames/",
      "emulator/ui/",
      "emulator/networks/routes.ts",
      "emulator/onramp/routes.ts",
      "emulator/webhooks/routes.ts",
      "emulator/coverage/",
    ],
  },
  {
    name: "root",
    holds: [
      "emulator/index.ts",
      "emulator/operations/registry.ts",
      "emulator/operations/index.generated.ts",
      "emulator/operations/parity.ts",
      "emulator/cli.ts",
      "emulator/cli-conformance.ts",
      "emulator/cli-env.ts",
      "emulator/cli-usage.ts",
      "emulator/cli-start-options.ts",
      "emulator/cli-suite-flags.ts",
      "emulator/cli-init.ts",
      "emulator/record/",
      "emulator/testing/",
    ],
  },
];

/** The catalog of every operation: only these modules may import it; everything else reads `rt.registry`. */
const REGISTRY = "emulator/operations/registry.ts";
/** The generated list of every module of entries (npm run gen:registry): only the registry composes it. */
const CATALOG = "emulator/operations/index.generated.ts";
const COMPOSITION_ROOTS = [
  "emulator/index.ts", // composes each instance's Runtime, registry included
  "emulator/cli-conformance.ts", // `emulator conformance`: lists the emulated operations without starting an instance
  "emulator/operations/parity.ts", // docs/parity.md (npm run gen:parity) is a table of the catalog
];

/** Imports that climb on purpose or for now, each with why (ARCHITECTURE.md "Known exceptions"). */
export const ALLOWED: { from: string; to: string; reason: string }[] = [];

/** Layer index (0 = bottom) of `file` by its longest matching entry, or undefined. */
export function layerOf(file: string, layers: Layer[] = LAYERS): number | undefined {
  let best: { index: number; length: number } | undefined;
  layers.forEach((layer, index) => {
    for (const p of layer.holds) {
      const hit = p.endsWith("/") ? file.startsWith(p) : file === p;
      if (hit && (!best || p.length > best.length)) best = { index, length: p.length };
    }
  });
  return best?.index;
}

/** Every import from a layer to a higher one: `from -> to`. */
export function climbs(graph: Map<string, string[]>, layers: Layer[] = LAYERS): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const [from, tos] of graph) {
    const a = layerOf(from, layers);
    for (const to of tos) {
      const b = layerOf(to, layers);
      if (a !== undefined && b !== undefined && b > a) out.push({ from, to });
    }
  }
  return out.sort((x, y) => `${x.from} ${x.to}`.localeCompare(`${y.from} ${y.to}`));
}

const edge = (e: { from: string; to: string }) => `${e.from} -> ${e.to}`;
const named = (file: string) => `${file} (${LAYERS[layerOf(file)!]!.name})`;

describe("layers of emulator/ and contracts/", () => {
  let graph: Map<string, string[]>;
  beforeAll(async () => {
    graph = await runtimeImportGraph(["emulator", "contracts"]);
  });

  it("place every source in a layer, and every entry of the table exists", () => {
    expect(graph.size).toBeGreaterThan(250); // the scan saw both trees
    const unplaced = [...graph.keys()].filter((f) => layerOf(f) === undefined);
    expect(unplaced, `sources in no layer of LAYERS (add them there and to ARCHITECTURE.md):\n${unplaced.join("\n")}\n`).toEqual([]);
    const missing = LAYERS.flatMap((l) => l.holds).filter((p) => !existsSync(join(ROOT, p)));
    expect(missing, "LAYERS names paths that do not exist").toEqual([]);
  });

  it("import only their own layer or lower ones (other than the allowed imports)", () => {
    const allowed = new Set(ALLOWED.map(edge));
    const found = climbs(graph).filter((e) => !allowed.has(edge(e)));
    const report = found.map((e) => `${named(e.from)}\n    -> ${named(e.to)}`).join("\n");
    expect(found, `imports from a lower layer to a higher one (ARCHITECTURE.md "Layers"):\n${report}\n`).toEqual([]);
  });

  it("allow no import that no longer climbs", () => {
    const climbing = new Set(climbs(graph).map(edge));
    const stale = ALLOWED.filter((a) => !climbing.has(edge(a))).map(edge);
    expect(stale, "ALLOWED entries that are gone or no longer climb: remove them (and from ARCHITECTURE.md)").toEqual([]);
  });

  it("import the operation registry only in a composition root", () => {
    const allowed = new Set(ALLOWED.filter((a) => a.to === REGISTRY).map((a) => a.from));
    const importers = [...graph].filter(([from, tos]) => tos.includes(REGISTRY) && !COMPOSITION_ROOTS.includes(from) && !allowed.has(from)).map(([from]) => from);
    expect(importers, `modules importing ${REGISTRY} (read rt.registry instead)`).toEqual([]);
  });

  it("compose the generated catalog only in the registry", () => {
    const importers = [...graph].filter(([, tos]) => tos.includes(CATALOG)).map(([from]) => from);
    expect(importers, `modules importing ${CATALOG} (import ${REGISTRY}, or read rt.registry)`).toEqual([REGISTRY]);
  });

  it("are the layers ARCHITECTURE.md names", () => {
    const doc = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
    const short = (p: string) => p.replace(/^emulator\//, "");
    const absent = LAYERS.flatMap((l) => [l.name, ...l.holds.map(short)]).filter((name) => !doc.includes(`\`${name}\``));
    expect(absent, "names of LAYERS that ARCHITECTURE.md does not mention (in backticks)").toEqual([]);
  });
});

describe("the layer check", () => {
  const layers: Layer[] = [
    { name: "low", holds: ["a/"] },
    { name: "high", holds: ["b/", "a/top.ts"] },
  ];

  it("places a file by its longest entry", () => {
    expect([layerOf("a/x.ts", layers), layerOf("a/top.ts", layers), layerOf("b/y.ts", layers), layerOf("c/z.ts", layers)]).toEqual([0, 1, 1, undefined]);
  });

  it("finds each climbing import and only those", () => {
    const g = new Map([
      ["a/x.ts", ["b/y.ts", "a/w.ts"]],
      ["a/top.ts", ["b/y.ts"]],
      ["b/y.ts", ["a/x.ts"]],
    ]);
    expect(climbs(g, layers)).toEqual([{ from: "a/x.ts", to: "b/y.ts" }]);
  });
});
