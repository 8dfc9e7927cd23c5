import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUNDLE_URL_PARAMETER, cacheDirsFor, loadCachedBundle } from "./cached-script.js";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cached-script-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const LOADER = fileURLToPath(new URL("./cached-script.ts", import.meta.url));

/**
 * Loads `file` in a fresh process, as a start would: within one process V8 keeps compiled
 * scripts by their source, and a second load there would not even look at the cached data.
 */
function loadInChild(file: string, cacheDirs: string[], write = false, v8Flags: string[] = []): { cache: string; answer: number; written?: string } {
  const script = `import { loadCachedBundle } from ${JSON.stringify(LOADER)};
const r = loadCachedBundle(${JSON.stringify(file)}, { cacheDirs: ${JSON.stringify(cacheDirs)} });
console.log(JSON.stringify({ cache: r.cache, answer: r.exports.answer, written: ${write} ? r.writeCache() : undefined }));`;
  return JSON.parse(execFileSync(process.execPath, [...v8Flags, "--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" }).trim().split("\n").pop()!);
}

/** A CommonJS "bundle" that uses what the wrapper passes in: require (relative to the file), module, its URL. */
function writeBundle(body = "41 + 1"): string {
  writeFileSync(join(dir, "dep.cjs"), "module.exports = { twice: (n) => 2 * n };");
  const file = join(dir, "bundle.cjs");
  writeFileSync(file, `"use strict";\nconst { twice } = require("./dep.cjs");\nmodule.exports = { answer: ${body}, twice, url: ${BUNDLE_URL_PARAMETER}, file: __filename };\n`);
  return file;
}

describe("loadCachedBundle", () => {
  it("runs the bundle with a require relative to it and its own URL; a later start's V8 takes the cache it wrote", () => {
    const file = writeBundle();
    const cacheDirs = [join(dir, "cache")];
    const first = loadCachedBundle(file, { cacheDirs });
    expect(first.cache).toBe("none");
    expect(first.exports).toMatchObject({ answer: 42, url: pathToFileURL(file).href, file });
    expect((first.exports.twice as (n: number) => number)(21)).toBe(42);
    expect(first.writeCache()).toMatch(/bundle\.cjs-[0-9a-f]{20}-v8-\d+\.bin$/);

    // V8's own verdict in a new process: cachedDataRejected false.
    expect(loadInChild(file, cacheDirs)).toEqual({ cache: "used", answer: 42 });
  });

  it("keeps a cache per set of V8 flags: a run with other flags neither gets the other's refused nor overwrites it", () => {
    const file = writeBundle();
    const cacheDirs = [join(dir, "cache")];
    const other = ["--max-old-space-size=3072"]; // changes V8's cachedDataVersionTag
    expect(loadInChild(file, cacheDirs, true)).toMatchObject({ cache: "none" });
    expect(loadInChild(file, cacheDirs, true, other)).toMatchObject({ cache: "none" });
    expect(readdirSync(join(dir, "cache"))).toHaveLength(2);
    expect(loadInChild(file, cacheDirs, false, other)).toEqual({ cache: "used", answer: 42 });
    expect(loadInChild(file, cacheDirs)).toEqual({ cache: "used", answer: 42 });
  });

  it("never hands a rebuilt bundle of the same length the cache of the previous one", () => {
    const cacheDirs = [join(dir, "cache")];
    const file = writeBundle("41 + 1");
    loadCachedBundle(file, { cacheDirs }).writeCache();
    writeBundle("40 + 3"); // same length, other code: V8 alone would not notice
    expect(loadInChild(file, cacheDirs)).toEqual({ cache: "none", answer: 43 });
  });

  it("runs the bundle when V8 refuses the cache, and writes where it can", () => {
    const file = writeBundle();
    const blocked = join(dir, "not-a-dir");
    writeFileSync(blocked, "a file where the first cache directory would be");
    const cacheDirs = [blocked, join(dir, "fallback")];
    const { written } = loadInChild(file, cacheDirs, true);
    expect(written!.startsWith(join(dir, "fallback"))).toBe(true);
    writeFileSync(written!, Buffer.alloc(4096, 7));
    expect(loadInChild(file, cacheDirs)).toEqual({ cache: "rejected", answer: 42 });
    expect(readdirSync(join(dir, "fallback")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it.skipIf(process.getuid === undefined)("neither reads nor writes a cache in a directory others can write to, or through a link", () => {
    const file = writeBundle();
    const shared = join(dir, "shared");
    const cacheDirs = [shared];
    expect(loadInChild(file, cacheDirs, true).written).toBeDefined();
    expect(loadInChild(file, cacheDirs)).toEqual({ cache: "used", answer: 42 });
    chmodSync(shared, 0o777); // anyone could have planted that file
    expect(loadInChild(file, cacheDirs, true)).toEqual({ cache: "none", answer: 42 });
    chmodSync(shared, 0o755);
    const link = join(dir, "link");
    symlinkSync(shared, link);
    expect(loadInChild(file, [link], true)).toEqual({ cache: "none", answer: 42 });
    expect(loadInChild(file, cacheDirs)).toEqual({ cache: "used", answer: 42 });
  });

  it("keeps the temporary directory's cache per user", () => {
    const [, temporary] = cacheDirsFor("/opt/pkg/dist/bundle/cli.cjs");
    expect(temporary).toBe(join(tmpdir(), process.getuid ? `turnkey-emulator-v8-cache-${process.getuid()}` : "turnkey-emulator-v8-cache"));
  });
});
