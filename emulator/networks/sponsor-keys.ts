/**
 * The emulator's gas-station keys: the EVM paymaster that submits sponsored transactions and
 * the Solana fee payer that pays for sponsored Solana transactions. Like Anvil's accounts they
 * are well-known development keys (derived from fixed labels), the same in every instance, so a
 * test can look at their balances. They hold nothing of value: local chains only.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { base58 } from "@scure/base";

const label = (s: string) => sha256(new TextEncoder().encode(s));

/** secp256k1 private key of the EVM paymaster. */
export const EVM_PAYMASTER_KEY: Uint8Array = label("turnkey-emulator gas station: evm paymaster");
/** ed25519 seed of the Solana fee payer. */
export const SOLANA_FEE_PAYER_KEY: Uint8Array = label("turnkey-emulator gas station: solana fee payer");

function evmAddress(privateKey: Uint8Array): `0x${string}` {
  const pub = secp256k1.getPublicKey(privateKey, false).subarray(1);
  const hex = Buffer.from(keccak_256(pub).subarray(12)).toString("hex");
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString("hex");
  return `0x${[...hex].map((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join("")}`;
}

export const EVM_PAYMASTER_ADDRESS = evmAddress(EVM_PAYMASTER_KEY);
export const SOLANA_FEE_PAYER_PUBLIC_KEY: Uint8Array = ed25519.getPublicKey(SOLANA_FEE_PAYER_KEY);
export const SOLANA_FEE_PAYER_ADDRESS = base58.encode(SOLANA_FEE_PAYER_PUBLIC_KEY);

/** The gas station tops its keys up to this much when they fall below half of it (local chains: funded by the dev controls). */
export const EVM_PAYMASTER_FLOAT = 1_000n * 10n ** 18n;
export const SOLANA_FEE_PAYER_FLOAT = 100n * 10n ** 9n;
