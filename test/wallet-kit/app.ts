/**
 * The example app (examples/wallet-kit) for the browser tests, built with
 * `vite build --mode development` (the mode in which the emulator's Vite plugin acts) and served
 * by a small static server on 127.0.0.1.
 *
 * The build is the slow part (~20 s of CPU), and only two of its inputs change from run to run:
 * the emulator's URLs (a new port each time). So the app is built with placeholder URLs, the
 * server writes the running emulator's URLs in their place as it serves each file, and the build
 * is kept under node_modules/.cache/wallet-kit-app/, named by a hash of everything else that goes
 * into it: the example's files, the emulator's Vite plugin (emulator/trust), the fixture whose
 * keys the plugin compiles in, the lockfile (every installed dependency), the build options and
 * the other VITE_TURNKEY_* values. Change any of them and the next run builds again.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const APP_ROOT = join(ROOT, "examples/wallet-kit/");
const CACHE = join(ROOT, "node_modules/.cache/wallet-kit-app");

export type AppEnv = { apiBaseUrl: string; authProxyUrl: string; authProxyConfigId: string; organizationId: string };
type Urls = Pick<AppEnv, "apiBaseUrl" | "authProxyUrl">;

/** Stand-ins for the emulator's URLs in the bundle (hosts under .invalid never resolve, so a missed swap fails loudly). */
const PLACEHOLDERS: Urls = { apiBaseUrl: "http://api.emulator-under-test.invalid", authProxyUrl: "http://auth-proxy.emulator-under-test.invalid" };

// Bundling the kit takes most of the time; skipping minification and gzip size reports saves a third.
const BUILD_OPTIONS = { minify: false, sourcemap: false, reportCompressedSize: false } as const;

/** Everything besides the URLs that decides the bundle's bytes: these files' contents and the ids. */
const INPUTS = ["examples/wallet-kit", "emulator/trust", "fixtures/embedded-wallet-app.json", "package-lock.json", "test/wallet-kit/app.ts"];

/**
 * The app built for a backend with these ids (URLs as placeholders: serve it with `serveApp`):
 * the cached build when its inputs are unchanged, else a new build that replaces it.
 */
export async function appBuild(ids: Pick<AppEnv, "authProxyConfigId" | "organizationId">): Promise<string> {
  const key = buildKey(ids);
  const dir = join(CACHE, key);
  if (existsSync(join(dir, "index.html"))) {
    utimesSync(dir, new Date(), new Date()); // in use: not pruned by another run for the next hour
    return dir;
  }
  mkdirSync(CACHE, { recursive: true });
  // Build beside the cache entry, then rename: a concurrent run sees a complete build or none.
  const building = mkdtempSync(join(CACHE, "building-"));
  try {
    await viteBuild({ ...ids, ...PLACEHOLDERS }, building);
    try {
      renameSync(building, dir);
    } catch (error) {
      if (!existsSync(join(dir, "index.html"))) throw error; // else another run finished the same build first
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  pruneCache(key);
  return dir;
}

/** Runs the app's Vite build with `env` as its VITE_TURNKEY_* variables. */
async function viteBuild(env: AppEnv, outDir: string): Promise<void> {
  const vars: Record<string, string> = {
    VITE_TURNKEY_API_BASE_URL: env.apiBaseUrl,
    VITE_TURNKEY_AUTH_PROXY_URL: env.authProxyUrl,
    VITE_TURNKEY_AUTH_PROXY_CONFIG_ID: env.authProxyConfigId,
    VITE_TURNKEY_ORGANIZATION_ID: env.organizationId,
  };
  // Variables already in the environment win over the app's .env (Vite's documented order).
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    const { build } = await import("vite");
    await build({ root: APP_ROOT, mode: "development", logLevel: "error", build: { outDir, emptyOutDir: true, ...BUILD_OPTIONS } });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  // The placeholders must be in the bundle, or serveApp could not point it at the emulator.
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const bundle = filesUnder(outDir).filter((f) => f.endsWith(".js")).map((f) => readFileSync(f, "utf8")).join("\n");
  for (const url of Object.values(PLACEHOLDERS)) if (!bundle.includes(url)) throw new Error(`the built app does not hold ${url} (index.html: ${html.length} bytes)`);
}

/** A hash of the build's inputs other than the URLs. */
function buildKey(ids: Pick<AppEnv, "authProxyConfigId" | "organizationId">): string {
  // package.json's exports map resolves `turnkey-emulator/vite` in the app's Vite config.
  const exportsMap = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports?: unknown }).exports;
  const hash = createHash("sha256").update(JSON.stringify({ ids, PLACEHOLDERS, BUILD_OPTIONS, exportsMap, node: process.versions.node }));
  for (const file of INPUTS.flatMap((input) => filesUnder(join(ROOT, input))).filter((f) => !/\.test\.ts$/.test(f))) {
    hash.update(`\0${relative(ROOT, file)}\0`).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 24);
}

/** Every file under `path` (itself if a file), sorted, skipping node_modules and build output. */
function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => e.name !== "node_modules" && e.name !== "dist")
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => filesUnder(join(path, e.name)));
}

/** Removes other builds and abandoned partial ones not touched for an hour (a concurrent run may still serve a recent one). */
function pruneCache(keep: string): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (name !== keep && statSync(path).mtimeMs < hourAgo) rmSync(path, { recursive: true, force: true });
  }
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};
const TEXT = new Set([".html", ".js", ".css", ".json"]);

export type StaticServer = { port: number; close: () => Promise<void> };

/**
 * Serves an app built by `appBuild` on 127.0.0.1 with the backend's URLs in place of the
 * placeholders. Both are read on each request, so the server can start (and its port be known)
 * before the emulator and the build exist.
 */
export async function serveApp(app: () => { dir: string; urls: Urls }): Promise<StaticServer> {
  return serveDirectory(() => {
    const { dir, urls } = app();
    return { dir, replace: [[PLACEHOLDERS.apiBaseUrl, urls.apiBaseUrl], [PLACEHOLDERS.authProxyUrl, urls.authProxyUrl]] };
  });
}

/**
 * Serves files under a directory on 127.0.0.1 (an unknown path gets index.html, as a single-page
 * app's host does), with each [from, to] pair replaced in text files.
 */
async function serveDirectory(site: () => { dir: string; replace?: [string, string][] }): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const { dir: root, replace = [] } = site();
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep) || !isFile(file)) file = join(root, "index.html");
    res.setHeader("content-type", TYPES[extname(file)] ?? "application/octet-stream");
    res.setHeader("cache-control", "no-store");
    if (!TEXT.has(extname(file))) return void res.end(readFileSync(file));
    res.end(replace.reduce((text, [from, to]) => text.replaceAll(from, to), readFileSync(file, "utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
