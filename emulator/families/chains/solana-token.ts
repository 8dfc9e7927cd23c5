/**
 * SPL Token accounts without a Solana SDK: program ids, associated-token-account
 * derivation (a program-derived address) and the 165-byte token account layout.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";

export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
export const ASSOCIATED_TOKEN_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;

function onCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

/** `findProgramAddress`: the first bump from 255 down whose hash is off the curve. */
export function findProgramAddress(seeds: Uint8Array[], programId: string): string {
  const program = base58.decode(programId);
  const marker = new TextEncoder().encode("ProgramDerivedAddress");
  for (let bump = 255; bump >= 0; bump--) {
    const h = sha256.create();
    for (const s of seeds) h.update(s);
    h.update(Uint8Array.of(bump)).update(program).update(marker);
    const candidate = h.digest();
    if (!onCurve(candidate)) return base58.encode(candidate);
  }
  throw new Error("no program address found");
}

export function associatedTokenAddress(owner: string, mint: string, tokenProgram = TOKEN_PROGRAM): string {
  return findProgramAddress([base58.decode(owner), base58.decode(tokenProgram), base58.decode(mint)], ASSOCIATED_TOKEN_PROGRAM);
}

/** Fields of an initialized token account. */
export function readTokenAccount(data: Uint8Array): { mint: string; owner: string; amount: bigint } {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { mint: base58.encode(data.subarray(0, 32)), owner: base58.encode(data.subarray(32, 64)), amount: view.getBigUint64(64, true) };
}

/** A fresh initialized token account (no delegate, not native, no close authority). */
export function tokenAccountData(mint: string, owner: string, amount: bigint): Uint8Array {
  const data = new Uint8Array(TOKEN_ACCOUNT_SIZE);
  data.set(base58.decode(mint), 0);
  data.set(base58.decode(owner), 32);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  data[108] = 1; // AccountState::Initialized
  return data;
}

export function setTokenAmount(data: Uint8Array, amount: bigint): void {
  new DataView(data.buffer, data.byteOffset, data.byteLength).setBigUint64(64, amount, true);
}

/** A mint's supply and decimals. */
export function readMint(data: Uint8Array): { supply: bigint; decimals: number } {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { supply: view.getBigUint64(36, true), decimals: data[44]! };
}

export function setMintSupply(data: Uint8Array, supply: bigint): void {
  new DataView(data.buffer, data.byteOffset, data.byteLength).setBigUint64(36, supply, true);
}
