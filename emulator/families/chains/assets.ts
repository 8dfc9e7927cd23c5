/**
 * What assets a chain holds, read from the chain: its native coin, the ERC-20 tokens that have
 * moved on it (every contract whose `Transfer(address,address,uint256)` log has the ERC-20
 * shape, the way an indexer finds them) and the SPL mints of a Solana cluster. Token metadata
 * (symbol, name, decimals) comes from the token itself (ERC-20 views, the SPL mint's decimals).
 */
import type { Chain } from "./chain.js";
import type { EvmChain } from "./evm-chain.js";
import type { SolanaChain } from "./solana-chain.js";
import { readMint, readTokenAccount, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM, TOKEN_2022_PROGRAM } from "./solana-token.js";
import { parseCaip2 } from "./caip2.js";
import { invalidArgument } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";

export type AssetMeta = { caip19: string; symbol: string; name: string; decimals: number };
export type Holding = AssetMeta & { balance: bigint; address?: string };

const NATIVE: Record<string, { symbol: string; name: string; decimals: number }> = {
  eip155: { symbol: "ETH", name: "Ether", decimals: 18 },
  solana: { symbol: "SOL", name: "Solana", decimals: 9 },
};
const NATIVE_BY_CHAIN: Record<string, { symbol: string; name: string }> = {
  "eip155:137": { symbol: "POL", name: "Polygon" },
  "eip155:80002": { symbol: "POL", name: "Polygon" },
  "eip155:56": { symbol: "BNB", name: "BNB" },
  "eip155:97": { symbol: "BNB", name: "BNB" },
  "eip155:143": { symbol: "MON", name: "Monad" },
  "eip155:10143": { symbol: "MON", name: "Monad" },
};

/** SPL mints have no on-chain symbol without a metadata program: the well-known ones by address. */
const KNOWN_MINTS: Record<string, { symbol: string; name: string }> = {
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: { symbol: "USDC", name: "USD Coin" },
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: { symbol: "USDT", name: "USDT" },
  "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU": { symbol: "USDC", name: "USD Coin (devnet)" },
  So11111111111111111111111111111111111111112: { symbol: "wSOL", name: "Wrapped SOL" },
};

export function nativeAsset(caip2: string): AssetMeta {
  const ns = caip2.startsWith("eip155:") ? "eip155" : "solana";
  const meta = { ...NATIVE[ns]!, ...(NATIVE_BY_CHAIN[caip2] ?? {}) };
  return { caip19: ns === "eip155" ? `${caip2}/slip44:60` : `${caip2}/slip44:501`, ...meta };
}

export function tokenCaip19(caip2: string, token: string): string {
  return caip2.startsWith("eip155:") ? `${caip2}/erc20:${token.toLowerCase()}` : `${caip2}/token:${token}`;
}

/** A CAIP-19 asset id, normalized the way nativeAsset and tokenCaip19 write it. */
export type AssetRef = { caip19: string; caip2: string; namespace: "eip155" | "solana" } & ({ native: true } | { native: false; token: string });

const CAIP19 = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,64})\/([-a-z0-9]{3,8}):([-.%a-zA-Z0-9]{1,128})$/;

/**
 * Parses a CAIP-19 asset id: a chain's native coin (`<caip2>/slip44:<coin type>`, as
 * nativeAsset names it), an ERC-20 (`eip155:<id>/erc20:<address>`, any case) or an SPL mint
 * (`solana:<ref>/token:<mint>`). Anything else is INVALID_ARGUMENT naming `field`.
 */
export function parseCaip19(value: string, field: string): AssetRef {
  const m = CAIP19.exec(value);
  if (!m) throw invalidArgument(`invalid CAIP-19 asset id ${quote(value)}: expected <caip2>/<asset namespace>:<reference>, e.g. eip155:1/slip44:60 or eip155:1/erc20:0x…`, field);
  const [, chain, assetNamespace, reference] = m as unknown as [string, string, string, string];
  const ref = parseCaip2(chain, field);
  const native = nativeAsset(ref.caip2);
  if (assetNamespace === "slip44") {
    if (`${ref.caip2}/slip44:${reference}` !== native.caip19) throw invalidArgument(`${value} is not the native coin of ${ref.caip2}: that is ${native.caip19}`, field);
    return { caip19: native.caip19, caip2: ref.caip2, namespace: ref.namespace, native: true };
  }
  if (ref.namespace === "eip155" && assetNamespace === "erc20") {
    if (!/^0x[0-9a-fA-F]{40}$/.test(reference)) throw invalidArgument(`invalid CAIP-19 asset id ${value}: an erc20 reference is a 0x-prefixed 20-byte address`, field);
    return { caip19: tokenCaip19(ref.caip2, reference), caip2: ref.caip2, namespace: "eip155", native: false, token: reference.toLowerCase() };
  }
  if (ref.namespace === "solana" && assetNamespace === "token") {
    if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(reference)) throw invalidArgument(`invalid CAIP-19 asset id ${value}: a token reference is a base58 mint address`, field);
    return { caip19: tokenCaip19(ref.caip2, reference), caip2: ref.caip2, namespace: "solana", native: false, token: reference };
  }
  throw invalidArgument(`unsupported CAIP-19 asset namespace ${assetNamespace} on ${ref.namespace}: expected slip44 or ${ref.namespace === "eip155" ? "erc20" : "token"}`, field);
}

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
type RpcLog = { address: string; topics: string[]; data: string; blockNumber: string; transactionHash: string; logIndex: string };

/** ERC-20 Transfer logs (three topics, a 32-byte amount), optionally only those to or from `holder`. */
export async function erc20TransferLogs(chain: EvmChain, holder?: string, toBlock = "latest"): Promise<RpcLog[]> {
  const fromBlock = await logsFrom(chain);
  const padded = holder ? `0x${holder.slice(2).toLowerCase().padStart(64, "0")}` : undefined;
  const queries = padded ? [[TRANSFER_TOPIC, padded], [TRANSFER_TOPIC, null, padded]] : [[TRANSFER_TOPIC]];
  const seen = new Set<string>();
  const out: RpcLog[] = [];
  for (const topics of queries) {
    for (const log of await chain.rpc<RpcLog[]>("eth_getLogs", [{ fromBlock, toBlock, topics }])) {
      if (log.topics.length !== 3 || log.data.length !== 66) continue; // ERC-721 indexes the token id (four topics)
      const key = `${log.transactionHash}:${log.logIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(log);
    }
  }
  return out;
}

/** Where log searches start: genesis on a local chain; the last 5,000 blocks of an external node (a mainnet fork's history stays upstream). */
const EXTERNAL_LOG_WINDOW = 5_000n;
async function logsFrom(chain: EvmChain): Promise<string> {
  if (chain.backend.kind === "local") return "0x0";
  const head = BigInt(await chain.rpc<string>("eth_blockNumber"));
  return `0x${(head > EXTERNAL_LOG_WINDOW ? head - EXTERNAL_LOG_WINDOW : 0n).toString(16)}`;
}

const erc20Meta = new WeakMap<EvmChain, Map<string, Promise<AssetMeta>>>();

/** An ERC-20's symbol, name and decimals from its own views (missing views: "UNKNOWN", 18). */
export function evmTokenMeta(chain: EvmChain, token: string): Promise<AssetMeta> {
  let cache = erc20Meta.get(chain);
  if (!cache) erc20Meta.set(chain, (cache = new Map()));
  const key = token.toLowerCase();
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      const { decodeFunctionResult, encodeFunctionData, parseAbi } = await import("viem");
      const abi = parseAbi(["function symbol() view returns (string)", "function name() view returns (string)", "function decimals() view returns (uint8)"]);
      const read = async <T>(fn: "symbol" | "name" | "decimals", fallback: T): Promise<T> => {
        try {
          const out = await chain.call({ to: token, data: encodeFunctionData({ abi, functionName: fn }) });
          return decodeFunctionResult({ abi, functionName: fn, data: out }) as T;
        } catch {
          return fallback;
        }
      };
      const [symbol, name, decimals] = await Promise.all([read("symbol", "UNKNOWN"), read("name", "Unknown token"), read("decimals", 18)]);
      return { caip19: tokenCaip19(chain.caip2, token), symbol, name, decimals: Number(decimals) };
    })();
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

function splMeta(caip2: string, mint: string, decimals: number): AssetMeta {
  const known = KNOWN_MINTS[mint];
  return { caip19: tokenCaip19(caip2, mint), symbol: known?.symbol ?? `SPL-${mint.slice(0, 4)}`, name: known?.name ?? `SPL token ${mint}`, decimals };
}

/** Every asset the chain knows: the native coin, then its ERC-20 tokens / SPL mints. */
export async function supportedAssets(chain: Chain): Promise<AssetMeta[]> {
  const out = [nativeAsset(chain.caip2)];
  if (chain.namespace === "eip155") {
    const evm = chain as EvmChain;
    const tokens = [...new Set((await erc20TransferLogs(evm)).map((l) => l.address.toLowerCase()))];
    out.push(...(await Promise.all(tokens.map((t) => evmTokenMeta(evm, t)))));
  } else {
    const sol = chain as SolanaChain;
    const mints = sol.localEngine ? sol.localEngine.mints() : await externalMints(sol);
    out.push(...mints.map((m) => splMeta(chain.caip2, m.mint, m.decimals)));
  }
  return out;
}

/** What `address` holds: the native coin (always listed), then every token with a balance. */
export async function holdings(chain: Chain, address: string): Promise<Holding[]> {
  const native: Holding = { ...nativeAsset(chain.caip2), balance: await chain.getBalance(address) };
  const out = [native];
  if (chain.namespace === "eip155") {
    const evm = chain as EvmChain;
    const tokens = [...new Set((await erc20TransferLogs(evm, address)).map((l) => l.address.toLowerCase()))];
    for (const t of tokens) {
      const balance = await chain.getBalance(address, t);
      if (balance > 0n) out.push({ ...(await evmTokenMeta(evm, t)), balance, address: t });
    }
  } else {
    const sol = chain as SolanaChain;
    const held = sol.localEngine ? sol.localEngine.tokenHoldings(address) : await externalHoldings(sol, address);
    const byMint = new Map<string, { amount: bigint; decimals: number }>();
    for (const h of held) byMint.set(h.mint, { amount: (byMint.get(h.mint)?.amount ?? 0n) + h.amount, decimals: h.decimals });
    for (const [mint, h] of byMint) if (h.amount > 0n) out.push({ ...splMeta(chain.caip2, mint, h.decimals), balance: h.amount, address: mint });
  }
  return out;
}

type RpcKeyedAccount = { pubkey: string; account: { data: [string, string] } };

async function externalHoldings(chain: SolanaChain, owner: string) {
  const out: { mint: string; amount: bigint; decimals: number }[] = [];
  for (const programId of [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) {
    const r = await chain.rpc<{ value: RpcKeyedAccount[] }>("getTokenAccountsByOwner", [owner, { programId }, { encoding: "base64" }]).catch(() => ({ value: [] as RpcKeyedAccount[] }));
    for (const a of r.value) {
      const data = Buffer.from(a.account.data[0], "base64");
      if (data.length < TOKEN_ACCOUNT_SIZE) continue;
      const t = readTokenAccount(data);
      const mint = await chain.rpc<{ value: { data: [string, string] } | null }>("getAccountInfo", [t.mint, { encoding: "base64" }]).catch(() => ({ value: null }));
      out.push({ mint: t.mint, amount: t.amount, decimals: mint.value ? readMint(Buffer.from(mint.value.data[0], "base64")).decimals : 0 });
    }
  }
  return out;
}

/** An external validator: mints cannot be listed cheaply; none beyond the native coin. */
async function externalMints(_chain: SolanaChain): Promise<{ mint: string; decimals: number }[]> {
  return [];
}

/** Decimal display of base units ("1.5" for 1500000000 at 9 decimals). */
export function displayAmount(balance: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const neg = balance < 0n;
  const abs = neg ? -balance : balance;
  const frac = (abs % unit).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${abs / unit}${frac ? `.${frac}` : ""}`;
}
