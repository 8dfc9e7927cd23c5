/**
 * One emulator instance's chains, by canonical CAIP-2 id. A chain is created on its first
 * use: the engines (EDR for EVM chains, LiteSVM for Solana) are imported only then, so an
 * instance that never touches a chain pays nothing. A caip2 given an external URL is a
 * client of that node instead.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { invalidArgument, unimplemented } from "../../core/errors.js";
import type { Chain } from "./chain.js";
import { isKnownCaip2, knownCaip2s, parseCaip2 } from "./caip2.js";
import type { EvmChain } from "./evm-chain.js";
import type { SolanaChain } from "./solana-chain.js";
import { httpTransport } from "./rpc.js";
import type { FundedAccounts } from "./fixture-accounts.js";
import { quote } from "../../core/input-error.js";
import type { Runtime } from "../../core/runtime.js";

/** What every fixture account starts with on a new local chain. */
export const FIXTURE_WEI = 10_000n * 10n ** 18n;
export const FIXTURE_LAMPORTS = 1_000n * 10n ** 9n;

/** What startEmulator takes for the chains. */
export type ChainsOptions = {
  /** caip2 -> RPC URL of an external node that serves that chain instead of the embedded one (`--chain`). */
  chains?: Record<string, string>;
};

export type NetworksOptions = {
  /** caip2 -> URL of an external node serving that chain (e.g. a user's Anvil). */
  external?: Record<string, string>;
  /** The addresses to pre-fund on each new local chain (read on first use). */
  fundedAccounts?: () => FundedAccounts;
  /** The emulator's public base URL, for the chains' RPC URLs. */
  baseUrl?: () => string;
  /** Milliseconds since the epoch (the instance's clock), for block times (EVM and Solana). */
  now?: () => number;
};

export type ChainListing = {
  caip2: string;
  namespace: "eip155" | "solana";
  rpcUrl: string;
  /** `local`: embedded engine; `external`: a client of `externalUrl`. */
  backend: "local" | "external";
  externalUrl?: string;
  /** Whether the chain has been created in this instance (local chains start on first use). */
  started: boolean;
  automine?: boolean;
};

export class Networks {
  private readonly chains = new Map<string, Promise<Chain>>();
  private readonly created = new Map<string, Chain>();
  private readonly external: Map<string, string>;
  private funded: FundedAccounts | undefined;
  private readonly createdListeners: ((chain: Chain) => void)[] = [];
  private readonly closeListeners: (() => void)[] = [];
  private readonly defiDeployments = new Map<Chain, Promise<void>>();

  constructor(private readonly opts: NetworksOptions = {}) {
    this.external = new Map(Object.entries(opts.external ?? {}).map(([caip2, url]) => [parseCaip2(caip2, "chains").caip2, url]));
  }

  /** Canonical id of a served chain; throws INVALID_ARGUMENT naming `field` otherwise. */
  resolve(caip2: string, field = "caip2"): string {
    const ref = parseCaip2(caip2, field);
    if (!isKnownCaip2(ref.caip2) && !this.external.has(ref.caip2)) throw invalidArgument(`unsupported caip2 ${caip2}: no such chain in this emulator (known: ${this.caip2s().join(", ")})`, field);
    return ref.caip2;
  }

  /** Every chain this instance can serve (known ones and externally configured ones). */
  caip2s(): string[] {
    return [...new Set([...knownCaip2s(), ...this.external.keys()])];
  }

  /** The chain, created on first use. */
  get(caip2: string, field = "caip2"): Promise<Chain> {
    const id = this.resolve(caip2, field);
    let p = this.chains.get(id);
    if (!p) {
      p = this.create(id).then((c) => {
        this.created.set(id, c);
        for (const fn of this.createdListeners) fn(c);
        return c;
      });
      p.catch(() => this.chains.delete(id));
      this.chains.set(id, p);
    }
    return p;
  }

  async evm(caip2: string, field = "caip2"): Promise<EvmChain> {
    const c = await this.get(caip2, field);
    if (c.namespace !== "eip155") throw invalidArgument(`${caip2} is not an EVM chain`, field);
    return c as EvmChain;
  }

  async solana(caip2: string, field = "caip2"): Promise<SolanaChain> {
    const c = await this.get(caip2, field);
    if (c.namespace !== "solana") throw invalidArgument(`${caip2} is not a Solana cluster`, field);
    return c as SolanaChain;
  }

  /** WebSocket upgrades on a chain's RPC path (Solana subscriptions); anything else is refused. */
  handleUpgrade(req: IncomingMessage, socket: Duplex): void {
    void import("./websocket.js").then(({ handleChainUpgrade }) => handleChainUpgrade(this, req, socket)).catch(() => socket.destroy());
  }

  rpcUrl(caip2: string): string {
    return `${this.opts.baseUrl?.() ?? ""}/emulator/v1/chains/${caip2}/rpc`;
  }

  list(): ChainListing[] {
    return this.caip2s().map((caip2) => {
      const external = this.external.get(caip2);
      const c = this.created.get(caip2) as (Chain & { automining?: boolean }) | undefined;
      return {
        caip2,
        namespace: caip2.startsWith("eip155:") ? "eip155" : "solana",
        rpcUrl: this.rpcUrl(caip2),
        backend: external ? "external" : "local",
        ...(external ? { externalUrl: external } : {}),
        started: !!c,
        ...(c ? { automine: c.automining } : {}),
      };
    });
  }

  /** The chains created so far. */
  started(): Chain[] {
    return [...this.created.values()];
  }

  /** Calls `fn` with each chain created from now on. */
  onCreated(fn: (chain: Chain) => void): void {
    this.createdListeners.push(fn);
  }

  /** Calls `fn` when the instance closes its chains. */
  onClose(fn: () => void): void {
    this.closeListeners.push(fn);
  }

  /**
   * The emulated clock moved: each started local EVM chain that mines on its own (automine)
   * mines an empty block at the new time, so what contracts compute from `block.timestamp`
   * (the local vaults' yield) reads current at `latest`. A chain whose automine is off takes
   * the time with the next block it is told to mine.
   */
  async clockMoved(): Promise<void> {
    await Promise.all(
      this.started()
        .filter((c) => c.namespace === "eip155" && c.backend.kind === "local" && (c as EvmChain).automining)
        .map((c) => c.mine()),
    );
  }

  /**
   * A local EVM chain with the local DeFi set (defi/) deployed on it, deploying it on
   * first use (the fixture accounts get test dollars). An external node has no local vaults or
   * pools: 501, naming the reason.
   */
  async defi(caip2: string, field = "caip2"): Promise<EvmChain> {
    const chain = await this.evm(caip2, field);
    if (chain.backend.kind !== "local") {
      throw unimplemented(`${chain.caip2} is served by the external node ${chain.backend.url}, which has no local vaults or pools: Earn and swaps run on the emulator's own chains only`);
    }
    let deployed = this.defiDeployments.get(chain);
    if (!deployed) {
      const { deployLocalDefi } = await import("./defi/deploy.js");
      deployed = deployLocalDefi(chain, this.fundedAccounts().evm);
      deployed.catch(() => this.defiDeployments.delete(chain));
      this.defiDeployments.set(chain, deployed);
    }
    await deployed;
    return chain;
  }

  /** Drops every local chain (they start afresh, pre-funded, on next use). */
  async reset(): Promise<void> {
    const all = [...this.chains.values()];
    this.chains.clear();
    this.created.clear();
    this.defiDeployments.clear();
    this.funded = undefined;
    await Promise.allSettled(all.map(async (p) => (await p).close()));
  }

  close(): Promise<void> {
    for (const fn of this.closeListeners.splice(0)) fn();
    return this.reset();
  }

  private fundedAccounts(): FundedAccounts {
    this.funded ??= this.opts.fundedAccounts?.() ?? { evm: [], solana: [] };
    return this.funded;
  }

  private async create(caip2: string): Promise<Chain> {
    const ref = parseCaip2(caip2);
    const url = this.external.get(caip2);
    if (ref.namespace === "eip155") {
      const { EvmChain } = await import("./evm-chain.js");
      if (url) return new EvmChain(caip2, ref.chainId, { kind: "external", url }, httpTransport(url));
      const { createEvmEngine } = await import("./evm-engine.js");
      const engine = await createEvmEngine(
        ref.chainId,
        this.fundedAccounts().evm.map((address) => ({ address, balance: FIXTURE_WEI })),
        this.opts.now,
      );
      return new EvmChain(caip2, ref.chainId, { kind: "local" }, engine);
    }
    const { SolanaChain } = await import("./solana-chain.js");
    if (url) return new SolanaChain(caip2, ref.genesisHash, { kind: "external", url }, httpTransport(url));
    const { SolanaEngine } = await import("./solana-engine.js");
    const engine = new SolanaEngine({
      genesisHash: ref.genesisHash,
      accounts: this.fundedAccounts().solana.map((address) => ({ address, lamports: FIXTURE_LAMPORTS })),
      ...(this.opts.now ? { now: this.opts.now } : {}),
    });
    return new SolanaChain(caip2, ref.genesisHash, { kind: "local" }, engine, engine);
  }
}

/** Parses `--chain <caip2>=<url>` values. */
/** The instance's chains (`rt.families.chains`), if it runs any (a runtime made by hand for a test may not). */
export function networksOf(rt: Runtime): Networks | undefined {
  return rt.families.chains?.networks;
}

/** The instance's chains, or INVALID_ARGUMENT naming `field` when it runs none. */
export function requireNetworks(rt: Runtime, field: string): Networks {
  const networks = networksOf(rt);
  if (!networks) throw invalidArgument("this emulator instance runs no chains", field);
  return networks;
}

export function parseChainOption(value: string): [string, string] {
  const i = value.indexOf("=");
  if (i < 1) throw invalidArgument(`--chain expects <caip2>=<rpc url>, got ${quote(value)}`, "chain");
  const caip2 = parseCaip2(value.slice(0, i), "chain").caip2;
  const url = value.slice(i + 1);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalidArgument(`--chain ${caip2}: ${quote(url)} is not a URL`, "chain");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw invalidArgument(`--chain ${caip2}: the RPC URL must be http(s), got ${u.protocol}`, "chain");
  return [caip2, url];
}
