// @ts-check
/**
 * `turnkey-emulator/webpack`: the webpack (and Next.js) counterpart of `turnkey-emulator/trust`.
 *
 *   // webpack.config.js
 *   import { TurnkeyEmulatorTrustPlugin } from "turnkey-emulator/webpack";
 *   export default { plugins: [new TurnkeyEmulatorTrustPlugin()] };
 *
 *   // next.config.mjs (webpack builds; `next dev --turbopack` does not run webpack plugins)
 *   webpack: (config) => { config.plugins.push(new TurnkeyEmulatorTrustPlugin()); return config; }
 *
 * Adds a pre-loader on modules under node_modules that swaps the production enclave key
 * literals for the emulator's keys. Refuses (one warning line) in production mode with
 * NODE_ENV=production (`webpack --mode production`, `next build`) unless `force: true` or
 * EMULATOR_TRUST_FORCE=1.
 */
import { fileURLToPath } from "node:url";
import { emulatorEnclaveKeys, fixturePath, fixtureSeedOrganizationId, refusalFor, trustedKeysFromEnv } from "./emulator-keys.js";
import { substitutionsFor } from "./substitute.js";

const LOADER = fileURLToPath(new URL("./webpack-loader.cjs", import.meta.url));

export class TurnkeyEmulatorTrustPlugin {
  /** @param {import("./vite.js").TrustOptions} [options] */
  constructor(options = {}) {
    this.options = options;
  }

  /** @param {import("webpack").Compiler} compiler */
  apply(compiler) {
    const o = this.options;
    const production = compiler.options.mode === "production" && (process.env.NODE_ENV ?? "production") === "production";
    const refusal = refusalFor({ NODE_ENV: production ? "production" : "development", EMULATOR_TRUST_FORCE: o.force ? "1" : process.env.EMULATOR_TRUST_FORCE });
    if (refusal) {
      console.warn(refusal.replace("turnkey-emulator/trust", "turnkey-emulator/webpack"));
      return;
    }
    const keys = o.keys ?? (o.organizationId ? emulatorEnclaveKeys(o.organizationId) : o.fixture ? emulatorEnclaveKeys(fixtureSeedOrganizationId(fixturePath(o.fixture))) : trustedKeysFromEnv(process.env).keys);
    compiler.options.module.rules.push({
      test: /\.[cm]?js$/,
      include: /[\\/]node_modules[\\/]/,
      enforce: "pre",
      use: [{ loader: LOADER, options: { substitutions: substitutionsFor(keys) } }],
    });
  }
}

export default TurnkeyEmulatorTrustPlugin;
