/** An address given to a chain-backed query, checked against its chain's namespace (`field` names it in the error). */
import { invalidArgument } from "../../core/errors.js";
import { lazyModule } from "../../core/lazy-module.js";
import { quote } from "../../core/input-error.js";

const viem = lazyModule<typeof import("viem")>("viem");

/** The field's own name for messages ("parameters.calls[0].to" -> "to"). */
const label = (field: string): string => field.slice(field.lastIndexOf(".") + 1);

/** A 0x-prefixed 20-byte address, given back checksummed. */
export function checkEvmAddress(address: string, field = "address"): `0x${string}` {
  if (!viem.isAddress(address, { strict: false })) throw invalidArgument(`${label(field)} must be a 0x-prefixed 20-byte Ethereum address, got ${quote(address)}`, field);
  return viem.getAddress(address);
}

/** A base58 Solana address, given back as is. */
export function checkSolanaAddress(address: string, field = "address"): string {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) throw invalidArgument(`${label(field)} must be a base58 Solana address, got ${quote(address)}`, field);
  return address;
}

/** The address in the form the chain `caip2` (eip155:* or solana:*) names it. */
export function checkChainAddress(caip2: string, address: string, field = "address"): string {
  return caip2.startsWith("eip155:") ? checkEvmAddress(address, field) : checkSolanaAddress(address, field);
}
