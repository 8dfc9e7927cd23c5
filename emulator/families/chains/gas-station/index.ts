/**
 * The gas station's delegate, the chains family's entry loaded with `import()` (viem's hashing
 * and the delegate's artifact load on first use): the EIP-7702 delegate every sponsored batch
 * runs through, and what a family that sends a batch needs of it.
 */
export { GAS_DELEGATE_ADDRESS, delegationOf, gasStationNonce } from "./delegate.js";
export type { BatchCall } from "./delegate.js";
