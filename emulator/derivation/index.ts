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
export { deriveKey, holdsNodesOf, type DerivedKey, type DeriveOptions, type NodeCache } from "./keys/derive.js";
export type { HdNode } from "./keys/node.js";
export {
  ADDRESS_FORMATS,
  type AddressFormat,
  isAddressFormat,
  addressFor,
  curvesFor,
  defaultPathFor,
} from "./address/index.js";
