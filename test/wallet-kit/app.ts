/**
 * The example app (examples/wallet-kit) for the browser tests, served by Vite's dev server as
 * the README runs it (`npx vite examples/wallet-kit`): the emulator's Vite plugin acts through
 * dependency pre-bundling (esbuild) and the transform pipeline, and the page loads the app's
 * own modules unbundled. (`vite build --mode development` is checked by test/trust/vite-plugin.)
 *
 * The HTTP server listens first, so the page's origin is known before the emulator starts (the
 * auth proxy refuses origins its configuration does not list); Vite joins it in middleware mode
 * once the emulator's URLs are known, since the app reads them from VITE_TURNKEY_* at start.
 * Pre-bundled dependencies are kept in node_modules/.cache/wallet-kit-vite, which Vite itself
 * invalidates when the lockfile, the config or the plugin's keys change.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ViteDevServer } from "vite";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const APP_ROOT = join(ROOT, "examples/wallet-kit/");
const CACHE_DIR = join(ROOT, "node_modules/.cache/wallet-kit-vite");

export type AppEnv = { apiBaseUrl: string; authProxyUrl: string; authProxyConfigId: string; organizationId: string };

export type AppServer = {
  port: number;
  /** Starts Vite with the app's configuration pointed at `env`; the page answers 503 before. */
  start: (env: AppEnv) => Promise<void>;
  close: () => Promise<void>;
};

/** An HTTP server on 127.0.0.1 that will serve the app once `start` has run. */
export async function appServer(): Promise<AppServer> {
  let vite: ViteDevServer | undefined;
  const server: Server = createServer((req, res) => {
    if (vite) return vite.middlewares(req, res);
    res.statusCode = 503;
    res.end("the app's dev server is not started yet");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    start: async (env) => {
      vite = await viteServer(env, server);
    },
    close: async () => {
      await vite?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Vite's dev server on `httpServer` (HMR's WebSocket included), with `env` as the app's VITE_TURNKEY_* values. */
async function viteServer(env: AppEnv, httpServer: Server): Promise<ViteDevServer> {
  const vars: Record<string, string> = {
    VITE_TURNKEY_API_BASE_URL: env.apiBaseUrl,
    VITE_TURNKEY_AUTH_PROXY_URL: env.authProxyUrl,
    VITE_TURNKEY_AUTH_PROXY_CONFIG_ID: env.authProxyConfigId,
    VITE_TURNKEY_ORGANIZATION_ID: env.organizationId,
  };
  // Variables already in the environment win over the app's .env (Vite's documented order); Vite
  // reads them once, as it resolves its configuration.
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    const { createServer: createViteServer } = await import("vite");
    return await createViteServer({
      root: APP_ROOT,
      mode: "development",
      logLevel: "error",
      cacheDir: CACHE_DIR,
      appType: "spa",
      // No file watching: nothing edits the app during a run.
      server: { middlewareMode: true, hmr: { server: httpServer }, watch: null },
    });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
