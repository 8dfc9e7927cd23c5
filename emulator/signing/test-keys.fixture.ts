/** Fixed, publicly known test keys (never real funds). */
import { hexToBytes } from "@noble/hashes/utils.js";

/** Hardhat / Anvil account #0. */
export const SECP_KEY_HEX = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
export const SECP_KEY = hexToBytes(SECP_KEY_HEX);
/** RFC 8032 test 1 secret key. */
export const ED_KEY = hexToBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
export const P256_KEY = hexToBytes("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721");
