// @ts-check
/**
 * The text substitution itself: production enclave key literals -> the emulator's keys, in
 * third-party code (modules under a node_modules directory). Keys have the same length on both
 * sides (130 hex characters uncompressed, 66 for the compressed on-ramp key), so every offset,
 * line and column stays where it was (source maps stay valid).
 */
import { PRODUCTION_ENCLAVE_KEYS } from "./production-keys.js";

/** @typedef {import("./emulator-keys.js").EmulatorEnclaveKeys} EmulatorEnclaveKeys */
/** @typedef {ReadonlyArray<readonly [from: string, to: string]>} Substitutions */

/** @param {EmulatorEnclaveKeys} keys @returns {Substitutions} */
export function substitutionsFor(keys) {
  return PRODUCTION_ENCLAVE_KEYS.flatMap((k) => {
    const to = keys[k.role];
    if (k.role === "onRamp") {
      if (to === undefined) return [];
      if (!/^0[23][0-9a-f]{64}$/.test(to)) throw new Error("turnkey-emulator/trust: the emulator's onRamp key must be compressed lowercase hex");
    } else if (!to || !/^04[0-9a-f]{128}$/.test(to)) throw new Error(`turnkey-emulator/trust: the emulator's ${k.role} key must be uncompressed lowercase hex`);
    return [/** @type {const} */ ([k.value, /** @type {string} */ (to)])];
  });
}

const NODE_MODULES = /[\\/]node_modules[\\/]/;

/** Whether a module (file path or URL) is third-party code the substitution may touch. */
export function isDependency(/** @type {string} */ idOrUrl) {
  return NODE_MODULES.test(idOrUrl);
}

/**
 * The code with every production key literal replaced, or null when it holds none.
 * @param {string} code @param {Substitutions} subs @returns {string | null}
 */
export function substituteEnclaveKeys(code, subs) {
  let out = code;
  for (const [from, to] of subs) if (out.includes(from)) out = out.split(from).join(to);
  return out === code ? null : out;
}
