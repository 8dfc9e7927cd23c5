/**
 * The import graphs of the emulator's own modules, shared by the architecture tests
 * (import-cycles.test.ts, boundaries.test.ts).
 *
 * `importGraph` is the TypeScript compiler's: every import a source names, type-only imports,
 * `import("...")` (in code and in types), re-exports and module augmentations included, each
 * resolved by the compiler's own module resolution with the project's compiler options.
 *
 * `runtimeImportGraph` is what loads at run time:
 * The graph is esbuild's: it bundles every non-test TypeScript source of the given folders as
 * an entry, with packages external, and its metafile lists each file's imports after
 * TypeScript's import elision, so `import type`, `{ type X }` and imports used only as types
 * are not edges. Dynamic `import()` is not an edge either: it runs after the importer has
 * initialised (the lazy modules rely on that).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";
import ts from "typescript";

export const ROOT = join(import.meta.dirname, "../..");

/** The non-test TypeScript sources under `dir` (or, with `tests`, its unit tests), relative to the repository root, sorted. */
export function sources(dir: string, tests = false): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && e.name.endsWith(".test.ts") === tests && !e.name.endsWith(".d.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** Where the emulator's own modules live: its tree, and the contracts it shares with the harness. */
const OWN = ["emulator/", "contracts/"];
const own = (file: string) => OWN.some((dir) => file.startsWith(dir));

/**
 * file -> the files of emulator/ and contracts/ it imports at load time, for every file the
 * sources of `dirs` load (imports are followed out of `dirs` into the other own folder).
 */
export async function runtimeImportGraph(dirs: string[] = ["emulator"]): Promise<Map<string, string[]>> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: dirs.flatMap((d) => sources(d)),
    bundle: true,
    write: false,
    metafile: true,
    outdir: "out",
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
    loader: { ".html": "text", ".css": "text", ".svg": "text", ".png": "binary", ".wasm": "binary" },
  });
  const graph = new Map<string, string[]>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    if (!own(file)) continue;
    const edges = input.imports.filter((i) => !i.external && i.kind !== "dynamic-import" && own(i.path)).map((i) => i.path);
    graph.set(file, [...new Set(edges)].sort());
  }
  return graph;
}

/** Generated sources (the zod contracts, compiled artifacts, the registry index): made by scripts, not written; left out of `importGraph`. */
const GENERATED = /(^|\/)generated\/|\.generated\.ts$|\/artifact\.ts$|\.fixture\.ts$/;

/**
 * file -> the files of emulator/ and contracts/ it names in any import (types and `import()`
 * included), for every non-test, non-generated source of `dirs`, resolved as the TypeScript
 * compiler resolves them (tsconfig.json's options). With `unitTests`, the graph's files are the
 * unit tests beside the code instead, each with the sources it imports.
 */
export function importGraph(dirs: string[] = ["emulator", "contracts"], { unitTests = false } = {}): Map<string, string[]> {
  const unreadable = (d: ts.Diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  };
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: unreadable });
  if (!config) throw new Error("tsconfig.json does not parse");
  const host = ts.createCompilerHost(config.options);
  const files = dirs.flatMap((d) => sources(d)).filter((f) => !GENERATED.test(f));
  const included = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of unitTests ? dirs.flatMap((d) => sources(d, true)) : files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
    const edges = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, join(ROOT, file), config.options, host).resolvedModule;
      const to = resolved && relative(ROOT, resolved.resolvedFileName);
      if (to && included.has(to)) edges.add(to);
    }
    graph.set(file, [...edges].sort());
  }
  return graph;
}

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
