/**
 * The example app (examples/wallet-kit) for the browser tests: built once per test file with
 * `vite build --mode development` (the mode in which the emulator's Vite plugin acts) into a
 * temporary directory, pointed at one emulator through the app's VITE_TURNKEY_* variables, and
 * served by a small static server on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

export const APP_ROOT = fileURLToPath(new URL("../../examples/wallet-kit/", import.meta.url));

export type AppEnv = { apiBaseUrl: string; authProxyUrl: string; authProxyConfigId: string; organizationId: string };

/** Builds the example app against the given backend; returns the output directory (the caller removes it). */
export async function buildApp(env: AppEnv): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "wallet-kit-app-"));
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
    await build({
      root: APP_ROOT,
      mode: "development",
      logLevel: "error",
      // Bundling the kit takes most of the time; skipping minification and gzip size reports saves a third.
      build: { outDir, emptyOutDir: true, minify: false, sourcemap: false, reportCompressedSize: false },
    });
  } catch (error) {
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return outDir;
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

export type StaticServer = { port: number; close: () => Promise<void> };

/**
 * Serves files under a directory on 127.0.0.1 (an unknown path gets index.html, as a single-page
 * app's host does). The directory is read on each request, so it can be filled after the start.
 */
export async function serveDirectory(dir: () => string): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const root = dir();
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) || !isFile(file)) file = join(root, "index.html");
    res.setHeader("content-type", TYPES[extname(file)] ?? "application/octet-stream");
    res.setHeader("cache-control", "no-store");
    res.end(readFileSync(file));
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
