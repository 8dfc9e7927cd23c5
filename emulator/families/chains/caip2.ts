/**
 * The chains the service accepts, by CAIP-2 id, and the normalization of Solana's aliases:
 * `solana:mainnet`, `solana:devnet` and the full genesis hash all name the cluster whose
 * canonical id is `solana:<first 32 characters of its genesis hash>`.
 */
import { invalidArgument } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";

/** EVM chain ids that the published API accepts for sending and balances. */
export const EVM_CHAIN_IDS = [1, 11155111, 8453, 84532, 137, 80002, 56, 97, 10, 11155420, 143, 10143, 42161, 4217, 42431, 421614] as const;

/** Solana clusters: canonical CAIP-2 reference (genesis hash prefix) -> full genesis hash and alias. */
export const SOLANA_CLUSTERS = {
  "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": { genesisHash: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d", alias: "mainnet" },
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: { genesisHash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG", alias: "devnet" },
} as const;

export type ChainRef =
  | { namespace: "eip155"; caip2: string; chainId: number }
  | { namespace: "solana"; caip2: string; reference: string; genesisHash: string };

const CAIP2 = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,64})$/;

/**
 * Parses and normalizes a CAIP-2 id. Any well-formed `eip155:<n>` and `solana:<ref>` parses;
 * whether the emulator serves it is the registry's decision (see `isKnownCaip2`).
 */
export function parseCaip2(value: string, field = "caip2"): ChainRef {
  const m = CAIP2.exec(value);
  if (!m) throw invalidArgument(`invalid caip2 ${quote(value)}: expected <namespace>:<reference>, e.g. eip155:1`, field);
  const [, ns, ref] = m as unknown as [string, string, string];
  if (ns === "eip155") {
    if (!/^[1-9][0-9]{0,15}$/.test(ref) || !Number.isSafeInteger(Number(ref))) throw invalidArgument(`invalid caip2 ${value}: the eip155 reference is a decimal chain id`, field);
    return { namespace: "eip155", caip2: `eip155:${ref}`, chainId: Number(ref) };
  }
  if (ns === "solana") {
    for (const [prefix, c] of Object.entries(SOLANA_CLUSTERS)) {
      if (ref === prefix || ref === c.genesisHash || ref === c.alias) return { namespace: "solana", caip2: `solana:${prefix}`, reference: prefix, genesisHash: c.genesisHash };
    }
    if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(ref)) throw invalidArgument(`invalid caip2 ${value}: the solana reference is a base58 genesis hash (or mainnet/devnet)`, field);
    const prefix = ref.slice(0, 32);
    return { namespace: "solana", caip2: `solana:${prefix}`, reference: prefix, genesisHash: ref };
  }
  throw invalidArgument(`unsupported caip2 namespace ${ns}: only eip155 and solana chains exist here`, field);
}

/** The canonical CAIP-2 ids of every chain the published API accepts. */
export function knownCaip2s(): string[] {
  return [...EVM_CHAIN_IDS.map((id) => `eip155:${id}`), ...Object.keys(SOLANA_CLUSTERS).map((r) => `solana:${r}`)];
}

export function isKnownCaip2(caip2: string): boolean {
  return knownCaip2s().includes(caip2);
}
