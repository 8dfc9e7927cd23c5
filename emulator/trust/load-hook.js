// @ts-check
/**
 * Module customization hooks (run by Node on its hooks thread, registered by register.js):
 * a `load` hook that substitutes the enclave keys in ES modules (and in CommonJS sources when
 * a loader hands one over) under node_modules. CommonJS that Node's own CJS loader reads from
 * disk (require(), and import of CJS on Node 20) never passes through here: register.js
 * covers it on the main thread.
 */
import { isDependency, substituteEnclaveKeys } from "./substitute.js";

/** @type {import("./substitute.js").Substitutions} */
let subs = [];
let debug = false;

/** @param {{ substitutions: import("./substitute.js").Substitutions; debug?: boolean }} data */
export function initialize(data) {
  subs = data.substitutions;
  debug = !!data.debug;
}

/**
 * @typedef {{ format?: string | null; source?: string | ArrayBuffer | ArrayBufferView | null; shortCircuit?: boolean }} LoadResult
 */

/**
 * @param {string} url
 * @param {{ format?: string | null }} context
 * @param {(url: string, context: object) => Promise<LoadResult>} nextLoad
 */
export async function load(url, context, nextLoad) {
  return patchLoaded(url, await nextLoad(url, context), subs, debug);
}

/**
 * A loaded module's result with the keys substituted when it is third-party JavaScript that holds
 * them; else the result as it came. Shared by this hook and the in-thread hooks of register.js.
 * @template {LoadResult} R
 * @param {string} url @param {R} result
 * @param {import("./substitute.js").Substitutions} substitutions @param {boolean} debugOn
 * @returns {R}
 */
export function patchLoaded(url, result, substitutions, debugOn) {
  if (result.source == null || !url.startsWith("file:") || !isDependency(url)) return result;
  if (result.format !== "module" && result.format !== "commonjs") return result;
  const text = typeof result.source === "string" ? result.source : Buffer.from(/** @type {ArrayBuffer} */ (result.source)).toString("utf8");
  const patched = substituteEnclaveKeys(text, substitutions);
  if (patched === null) return result;
  if (debugOn) process.stderr.write(`turnkey-emulator/trust: substituted enclave keys in ${url}\n`);
  return { ...result, source: patched };
}
