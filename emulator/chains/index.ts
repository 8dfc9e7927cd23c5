/** Public API of the chains library: seeds, key derivation and address encoding. */
export {
  MNEMONIC_LENGTHS,
  type MnemonicLength,
  generateMnemonic,
  isValidMnemonic,
  assertValidMnemonic,
  mnemonicWordCount,
  mnemonicToSeed,
} from "./keys/mnemonic.js";
export { HARDENED_OFFSET, parsePath, formatPath, normalizePath } from "./keys/path.js";
export { CURVES, type Curve, isCurve } from "./keys/curve.js";
export { deriveKey, clearDerivationCache, type DerivedKey, type DeriveOptions } from "./keys/derive.js";
export {
  ADDRESS_FORMATS,
  type AddressFormat,
  isAddressFormat,
  addressFor,
  curvesFor,
  defaultPathFor,
} from "./address/index.js";
