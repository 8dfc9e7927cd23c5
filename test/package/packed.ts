/**
 * The packed package installed as a user installs it, for the tests of test/package/: packs this
 * checkout as `npm publish` would (the prepack step's `emulator` command included) and installs
 * the tarball into a fresh temporary project together with the packages a test names. Needs dist/
 * built (`npm ci` runs the build) and the npm registry (the npm cache serves what it already
 * holds); a test skips, saying so, only when the registry cannot be reached.
 *
 * The install skips install scripts: better-sqlite3's would compile SQLite (minutes on two cores)
 * where the checkout already holds the same version's binary for this Node, which is copied in.
 */
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

export const ROOT = join(import.meta.dirname, "..", "..");
export const run = promisify(execFile);
export const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** The environment of a user's shell: none of the npm_* variables `npm test` hands down, except where npm keeps its cache and which registry it asks, nor what a running vitest sets for its own workers. */
export const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => (!/^npm_/i.test(k) || /^npm_config_(cache|registry|userconfig)$/i.test(k)) && !/^(VITEST|TEST$|NODE_OPTIONS$|TURNKEY_)/.test(k)),
) as NodeJS.ProcessEnv;

/** Why the registry cannot be reached, or undefined when it can. */
export async function registryUnreachable(): Promise<string | undefined> {
  try {
    await run("npm", ["ping"], { env: ENV, timeout: 20_000 });
    return undefined;
  } catch (e) {
    return (e as Error).message.split("\n").find((l) => /ERR|error|timed out|ETIMEDOUT|ENOTFOUND|EAI_AGAIN/i.test(l)) ?? "npm ping failed";
  }
}

/** The version of a package this checkout holds, so that the npm cache usually has it. */
export const versionHere = (name: string): string => readJson(join(ROOT, "node_modules", name, "package.json")).version as string;

export type PackedFile = { path: string; size: number };
export type Packed = { filename: string; files: PackedFile[]; unpackedSize: number };

/** Packs the checkout into `work` and installs the tarball with `packages` into `work/consumer`; gives the project's directory and what was packed. */
export async function packAndInstall(work: string, packages: string[]): Promise<{ project: string; packed: Packed }> {
  if (!existsSync(join(ROOT, "dist", "bundle", "cli.cjs"))) throw new Error("dist/ is not built: run `npm run build` (npm ci does it)");
  // What `npm pack` runs around the tarball (prepack, postpack), without `prepare`'s whole rebuild.
  const packBin = (action: string) => execFileSync(process.execPath, [join(ROOT, "scripts", "pack-bin.mjs"), action]);
  packBin("add");
  let packed: Packed;
  try {
    const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: ROOT, env: ENV, timeout: 60_000 });
    [packed] = JSON.parse(stdout);
  } finally {
    packBin("remove");
  }
  const project = join(work, "consumer");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  await run("npm", ["install", join(work, packed.filename), ...packages, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-update-notifier"], { cwd: project, env: ENV, timeout: 240_000 });
  const sqlite = (base: string) => join(base, "node_modules", "better-sqlite3");
  if (readJson(join(sqlite(project), "package.json")).version === readJson(join(sqlite(ROOT), "package.json")).version) {
    mkdirSync(join(sqlite(project), "build", "Release"), { recursive: true });
    copyFileSync(join(sqlite(ROOT), "build", "Release", "better_sqlite3.node"), join(sqlite(project), "build", "Release", "better_sqlite3.node"));
  } else {
    await run("npm", ["rebuild", "better-sqlite3"], { cwd: project, env: ENV, timeout: 300_000 });
  }
  return { project, packed };
}
