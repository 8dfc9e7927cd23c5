/**
 * The emulator's gas-station keys: the EVM paymaster that submits sponsored transactions and
 * the Solana fee payer that pays for sponsored Solana transactions. Like Anvil's accounts they
 * are well-known development keys (derived from fixed labels), the same in every instance, so a
 * test can look at their balances. They hold nothing of value: local chains only.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import type { Chain } from "./chain.js";

const label = (s: string) => sha256(new TextEncoder().encode(s));

/** secp256k1 private key of the EVM paymaster. */
export const EVM_PAYMASTER_KEY: Uint8Array = label("turnkey-emulator gas station: evm paymaster");
/** ed25519 seed of the Solana fee payer. */
export const SOLANA_FEE_PAYER_KEY: Uint8Array = label("turnkey-emulator gas station: solana fee payer");

// Their public halves are written out rather than computed at import: the first secp256k1 and
// ed25519 multiplications build noble's precomputed tables, which start-up would pay for
// (sponsor-keys.test.ts derives them again and compares).
export const EVM_PAYMASTER_ADDRESS: `0x${string}` = "0x1417a74cF3150D464a3F58652Cc8035C52F4f7b7";
export const SOLANA_FEE_PAYER_PUBLIC_KEY: Uint8Array = Uint8Array.from(Buffer.from("81f6d8886987bcd881f805274ada3c4994e41084c500b7616818f7233aea9943", "hex"));
export const SOLANA_FEE_PAYER_ADDRESS = "9kKuUTw7XSFnEmeLdsR9JiPAuEtaQWMUpqqo4DGtPxcS";

/** The gas station tops its keys up to this much when they fall below half of it (local chains: funded by the dev controls). */
export const EVM_PAYMASTER_FLOAT = 1_000n * 10n ** 18n;
export const SOLANA_FEE_PAYER_FLOAT = 100n * 10n ** 9n;

/** Tops a gas-station key up to `float` when it holds less than half of it (the local chains' dev controls; Anvil answers them too). */
export async function topUp(chain: Chain, address: string, float: bigint): Promise<void> {
  const balance = await chain.getBalance(address);
  if (balance < float / 2n) await chain.fund(address, float - balance);
}
