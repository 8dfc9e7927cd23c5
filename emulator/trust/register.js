// @ts-check
/**
 * `turnkey-emulator/trust`: a dev-only Node preload that makes unmodified Turnkey client code
 * trust the emulator's enclave keys, the way mkcert makes a machine trust a local CA.
 *
 *   NODE_OPTIONS="--import turnkey-emulator/trust" node app.js
 *
 * As @turnkey/* code is loaded, the production enclave key literals (signer, notarizer, TLS
 * fetcher) are replaced, in memory, by the emulator's per-fixture keys. Nothing on disk
 * changes. ES modules go through a `load` hook (in this thread through module.registerHooks on
 * Node >= 22.15, else on Node's hooks thread through module.register); CommonJS through a
 * wrapper of Module.prototype._compile, because on Node 20 the hooks never see require().
 *
 * Environment: TURNKEY_EMULATOR_ORG_ID or EMULATOR_TRUST_FIXTURE choose the fixture (default:
 * the package's fixtures/default.json); NODE_ENV=production refuses (one warning line)
 * unless EMULATOR_TRUST_FORCE=1; EMULATOR_TRUST_DEBUG=1 names each patched file on stderr.
 */
import * as nodeModule from "node:module";
import { createRequire, register } from "node:module";
import { patchLoaded } from "./load-hook.js";
import { refusalFor, trustedKeysFromEnv } from "./emulator-keys.js";
import { isDependency, substituteEnclaveKeys, substitutionsFor } from "./substitute.js";

const INSTALLED = Symbol.for("turnkey-emulator/trust");

function install() {
  const g = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis));
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;

  const refusal = refusalFor(process.env);
  if (refusal) {
    process.stderr.write(`${refusal}\n`);
    return;
  }
  const { keys } = trustedKeysFromEnv(process.env);
  const substitutions = substitutionsFor(keys);
  const debug = process.env.EMULATOR_TRUST_DEBUG === "1";

  // CommonJS: every module Node's CJS loader compiles passes through _compile(content, filename).
  const Module = /** @type {{ prototype: { _compile: (content: string, filename: string) => unknown } }} */ (createRequire(import.meta.url)("node:module"));
  const compile = Module.prototype._compile;
  /** @this {unknown} @param {string} content @param {string} filename */
  Module.prototype._compile = function (content, filename) {
    if (typeof content === "string" && typeof filename === "string" && isDependency(filename)) {
      const patched = substituteEnclaveKeys(content, substitutions);
      if (patched !== null) {
        if (debug) process.stderr.write(`turnkey-emulator/trust: substituted enclave keys in ${filename}\n`);
        return compile.call(this, patched, filename);
      }
    }
    return compile.call(this, content, filename);
  };

  // ES modules: a load hook. Node >= 22.15 runs it in this thread (module.registerHooks); older
  // Nodes only on a hooks thread (module.register), where every import crosses threads (on
  // Node 20 a process importing @turnkey/sdk-server pays ~0.4 s for that, 600 modules).
  const { registerHooks } = /** @type {{ registerHooks?: (hooks: { load: (url: string, context: object, nextLoad: (url: string, context: object) => import("./load-hook.js").LoadResult) => import("./load-hook.js").LoadResult }) => unknown }} */ (
    /** @type {unknown} */ (nodeModule)
  );
  if (typeof registerHooks === "function") registerHooks({ load: (url, context, nextLoad) => patchLoaded(url, nextLoad(url, context), substitutions, debug) });
  else register("./load-hook.js", { parentURL: import.meta.url, data: { substitutions, debug } });
}

install();
