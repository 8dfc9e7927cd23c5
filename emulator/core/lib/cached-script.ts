/**
 * Loads a CommonJS bundle (dist/bundle/*.cjs, scripts/bundle.ts) through a V8 code cache, so a
 * start does not parse and compile again what the previous one compiled. Node 20 has no
 * compile cache of its own (module.enableCompileCache is Node 22), so this does what it does
 * with node:vm: the bundle runs as a vm.Script given the cached data of an earlier run, and a
 * run that had none (or whose data V8 refused: another V8 version or other V8 flags) writes it
 * once start-up is over, including the functions compiled while starting.
 *
 * The cache file is named after a hash of the bundle's bytes, so a rebuilt bundle never meets
 * data made for another (V8 itself checks little more than the source's length), and after
 * V8's cachedDataVersionTag (its version, flags and CPU features), so runs with other V8 flags
 * (`NODE_OPTIONS=--max-old-space-size=...`) keep a cache of their own instead of having the
 * build's refused and overwriting each other's. It is written
 * beside the bundle (`npm run build` makes it there), or in the system's temporary directory
 * when the package's directory is read-only; a rename makes each write atomic, so instances
 * starting together do not read half a file. A cache that cannot be read or written only costs
 * the compile it would have saved.
 *
 * Cached data is code V8 runs, so a directory is only used when nobody else could have put
 * files in it: a real directory (not a link), owned by this user or root, writable by no one
 * else. The temporary directory's cache is per user (its name carries the uid).
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { cachedDataVersionTag } from "node:v8";
import { Script } from "node:vm";
import { threadId } from "node:worker_threads";

/** The name esbuild's `define` gives `import.meta.url` in the CommonJS bundles: the bundle file's URL. */
export const BUNDLE_URL_PARAMETER = "__emulatorBundleUrl";

export type CachedBundleOptions = {
  /** When to write the cache if there was none that V8 accepted (after start-up: what ran by then is in it). */
  writeCacheAfterMs?: number;
  /** Where to look for and write caches, first usable first (default: beside the bundle, then the temporary directory). */
  cacheDirs?: string[];
};

export type CachedBundle = {
  exports: Record<string, unknown>;
  /** "used" when V8 took an earlier run's code, "rejected" when it refused it, "none" when there was none. */
  cache: "used" | "rejected" | "none";
  /** Writes the cache now (what has been compiled so far); returns the file written, if any. */
  writeCache(): string | undefined;
};

export function cacheDirsFor(file: string): string[] {
  const uid = process.getuid?.();
  return [join(dirname(file), ".v8-cache"), join(tmpdir(), `turnkey-emulator-v8-cache${uid === undefined ? "" : `-${uid}`}`)];
}

/** Whether only this user (or root) could have written the directory's files (always, where there are no uids). */
function trusted(dir: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && (st.uid === uid || st.uid === 0) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Runs the CommonJS bundle at `file` (an absolute path) and returns its exports. */
export function loadCachedBundle(file: string, options: CachedBundleOptions = {}): CachedBundle {
  const bytes = readFileSync(file);
  // The bundles are ASCII (esbuild's charset), so latin1 decodes them exactly and cheaply into a one-byte string.
  const source = bytes.toString("latin1");
  const key = `${basename(file)}-${createHash("sha1").update(bytes).digest("hex").slice(0, 20)}-v8-${cachedDataVersionTag()}.bin`;
  const dirs = options.cacheDirs ?? cacheDirsFor(file);
  const cachedData = readFirst(dirs.filter(trusted).map((d) => join(d, key)));
  const wrapper = `(function (exports, require, module, __filename, __dirname, ${BUNDLE_URL_PARAMETER}) {${source}\n})`;
  const script = new Script(wrapper, { filename: file, cachedData });
  const cache = !cachedData ? "none" : script.cachedDataRejected ? "rejected" : "used";

  const mod = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file), pathToFileURL(file).href);

  const writeCache = (): string | undefined => {
    const data = script.createCachedData();
    for (const dir of dirs) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o755 });
        if (!trusted(dir)) continue;
        const target = join(dir, key);
        const partial = `${target}.${process.pid}-${threadId}.tmp`;
        writeFileSync(partial, data);
        renameSync(partial, target);
        return target;
      } catch {
        // Not writable here: the next place, or no cache.
      }
    }
    return undefined;
  };
  if (cache !== "used" && options.writeCacheAfterMs !== undefined) setTimeout(writeCache, options.writeCacheAfterMs).unref();
  return { exports: mod.exports, cache, writeCache };
}

function readFirst(files: string[]): Buffer | undefined {
  for (const f of files) {
    try {
      return readFileSync(f);
    } catch {
      // Not there: the next place.
    }
  }
  return undefined;
}
