/**
 * The runtime import graph of the emulator's own modules, shared by the architecture tests
 * (import-cycles.test.ts, layers.test.ts).
 *
 * The graph is esbuild's: it bundles every non-test TypeScript source of the given folders as
 * an entry, with packages external, and its metafile lists each file's imports after
 * TypeScript's import elision, so `import type`, `{ type X }` and imports used only as types
 * are not edges. Dynamic `import()` is not an edge either: it runs after the importer has
 * initialised (the lazy modules rely on that).
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

export const ROOT = join(import.meta.dirname, "../..");

/** The non-test TypeScript sources under `dir`, relative to the repository root, sorted. */
export function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts"))
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
    entryPoints: dirs.flatMap(sources),
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
