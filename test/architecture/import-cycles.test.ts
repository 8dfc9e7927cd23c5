/**
 * No import cycle in emulator/ and contracts/, counting every import the TypeScript compiler
 * sees: type-only imports, `import()` and module augmentations too (./import-graph.ts
 * `importGraph`; tests and generated files left out). A runtime cycle makes a module's exports
 * undefined while the cycle initialises (order-dependent crashes); a type-level one ties the
 * bottom of the tree to its top (the core naming a family's types), so neither can change alone.
 */
import { describe, expect, it } from "vitest";
import { cycles, importGraph } from "./import-graph.js";

/** Cycles kept on purpose, each as the sorted files of its strongly connected component, with why. */
const ALLOWED: { files: string[]; reason: string }[] = [];

/** One shortest loop through `scc`, starting and ending at its first file, for the message. */
function loopIn(graph: Map<string, string[]>, scc: string[]): string[] {
  const members = new Set(scc);
  const start = scc[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u: string | undefined = v; u !== undefined && u !== start; u = prev.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return scc;
}

describe("imports of emulator/ and contracts/, types included", () => {
  it("form no cycle (other than the allowed ones)", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300); // the scan saw both trees
    expect(graph.get("emulator/core/engine/engine.ts")).toContain("emulator/core/runtime.ts"); // type-only imports are edges
    const allowed = new Set(ALLOWED.map((a) => a.files.join(" ")));
    const found = cycles(graph).filter((scc) => !allowed.has(scc.join(" ")));
    const report = found.map((scc) => `${scc.length} files, e.g. ${loopIn(graph, scc).join("\n    -> ")}`).join("\n\n");
    expect(found, `runtime import cycles:\n\n${report}\n`).toEqual([]);
  });

  it("the detector finds each cycle and a loop through it", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["d"]],
      ["e", []],
    ]);
    expect(cycles(g)).toEqual([["a", "b", "c"], ["d"]]);
    expect(loopIn(g, ["a", "b", "c"])).toEqual(["a", "b", "c", "a"]);
  });
});
