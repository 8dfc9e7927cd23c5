// @ts-check
/**
 * `turnkey-emulator/vite`: the browser-bundle counterpart of `turnkey-emulator/trust`.
 *
 *   // vite.config.ts
 *   import turnkeyEmulatorTrust from "turnkey-emulator/vite";
 *   export default defineConfig({ plugins: [turnkeyEmulatorTrust()] });
 *
 * Substitutes the production enclave key literals with the emulator's keys in dependency code
 * (modules under node_modules): through the `transform` hook (vite build, and modules Vite
 * serves in dev) and through an esbuild plugin in optimizeDeps, because Vite's dependency
 * pre-bundling runs esbuild, not the plugin pipeline. Dev-only: in production mode with
 * NODE_ENV=production (plain `vite build`) it warns once and substitutes nothing, unless
 * `force: true` or EMULATOR_TRUST_FORCE=1; `vite` (dev) and `vite build --mode development` act.
 */
import { readFile } from "node:fs/promises";
import { emulatorEnclaveKeys, fixturePath, fixtureSeedOrganizationId, refusalFor, trustedKeysFromEnv } from "./emulator-keys.js";
import { isDependency, substituteEnclaveKeys, substitutionsFor } from "./substitute.js";

/**
 * @typedef {object} TrustOptions
 * @property {string} [organizationId] the fixture organization id seeding the emulator's keys
 * @property {string} [fixture] a fixture file (path or name under the package's fixtures/)
 * @property {import("./emulator-keys.js").EmulatorEnclaveKeys} [keys] the keys themselves (as /emulator/v1/info lists them)
 * @property {boolean} [force] act in a production build too
 */

/** @param {TrustOptions} options */
function keysFor(options) {
  if (options.keys) return options.keys;
  if (options.organizationId) return emulatorEnclaveKeys(options.organizationId);
  if (options.fixture) return emulatorEnclaveKeys(fixtureSeedOrganizationId(fixturePath(options.fixture)));
  return trustedKeysFromEnv(process.env).keys;
}

/** Dependency files esbuild's pre-bundling may load through the plugin (the @turnkey packages). */
const ESBUILD_FILTER = /[\\/]node_modules[\\/](?:.*[\\/])?@turnkey[\\/].*\.[cm]?js$/;

/**
 * @param {TrustOptions} [options]
 * @returns {import("vite").Plugin}
 */
export default function turnkeyEmulatorTrust(options = {}) {
  /** @type {import("./substitute.js").Substitutions | null} */
  let subs = null;

  /**
   * Vite reuses a dependency pre-bundle while its config hash holds, and that hash sees esbuild
   * plugins by name only: the name carries which keys (or none) the bundle was made with, so a
   * switch of fixture or of the refusal re-bundles instead of serving stale keys.
   * @returns {import("esbuild").Plugin}
   */
  const esbuildPlugin = () => ({
    name: `turnkey-emulator-trust:${subs ? [...new Set(subs.map(([, to]) => to.slice(2, 10)))].join("") : "off"}`,
    /** @param {import("esbuild").PluginBuild} build */
    setup(build) {
      build.onLoad({ filter: ESBUILD_FILTER }, async (args) => {
        if (!subs) return undefined;
        const patched = substituteEnclaveKeys(await readFile(args.path, "utf8"), subs);
        return patched === null ? undefined : { contents: patched, loader: /** @type {const} */ ("js") };
      });
    },
  });

  return {
    name: "turnkey-emulator-trust",
    enforce: "pre",
    config(_config, env) {
      // Vite sets NODE_ENV=production for every `vite build`, whatever the mode; the mode tells
      // the shipping build (production) from one made for the emulator (`--mode development`).
      const production = env.mode === "production" && (process.env.NODE_ENV ?? "production") === "production";
      const refusal = refusalFor({ NODE_ENV: production ? "production" : "development", EMULATOR_TRUST_FORCE: options.force ? "1" : process.env.EMULATOR_TRUST_FORCE });
      if (refusal) {
        subs = null;
        console.warn(refusal.replace("turnkey-emulator/trust", "turnkey-emulator/vite"));
      } else {
        subs = substitutionsFor(keysFor(options));
      }
      return { optimizeDeps: { esbuildOptions: { plugins: [esbuildPlugin()] } } };
    },
    transform(code, id) {
      if (!subs || !isDependency(id)) return null;
      const patched = substituteEnclaveKeys(code, subs);
      // Same-length literals: nothing moves, so the incoming source map stays valid (map: null).
      return patched === null ? null : { code: patched, map: null };
    },
  };
}

export { turnkeyEmulatorTrust };
