/**
 * No runtime import cycle in emulator/ (followed into contracts/, which it imports and which
 * imports emulator/errors.ts back): a cycle makes a module's exports undefined while the
 * cycle initialises (order-dependent crashes) and lets a low layer reach the whole tree.
 *
 * The graph (./import-graph.ts) is esbuild's, after TypeScript's import elision: type-only
 * imports and dynamic `import()` are not edges.
 */
import { describe, expect, it } from "vitest";
import { runtimeImportGraph } from "./import-graph.js";

/** Cycles kept on purpose, each as the sorted files of its strongly connected component, with why. */
const ALLOWED: { files: string[]; reason: string }[] = [];

/** Strongly connected components with more than one file (or a file importing itself): Tarjan. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

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

describe("runtime imports of emulator/", () => {
  it("form no cycle (other than the allowed ones)", async () => {
    const graph = await runtimeImportGraph();
    expect(graph.size).toBeGreaterThan(200); // the scan saw the tree
    expect(graph.get("emulator/runtime.ts")).toEqual([]); // it imports only types: no edge
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
