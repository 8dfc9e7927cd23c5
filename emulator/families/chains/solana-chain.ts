/**
 * A Solana cluster over JSON-RPC: the embedded engine or an external validator
 * (`solana-test-validator`, a fork). The developer controls need the embedded engine, except
 * funding, which an external validator offers through its faucet (`requestAirdrop`).
 */
import { base64 } from "@scure/base";
import type { Chain, ChainBackend, TxStatus } from "./chain.js";
import { call, RpcError, type JsonRpcRequest, type JsonRpcResponse, type RpcTransport } from "./rpc.js";
import type { SolanaEngine } from "./solana-engine.js";
import { solanaErrorMessage } from "./solana-errors.js";
import { associatedTokenAddress } from "./solana-token.js";

type SignatureStatus = { slot: number; err: unknown } | null;

export class SolanaChain implements Chain {
  readonly namespace = "solana" as const;
  private readonly transport: RpcTransport;
  constructor(
    readonly caip2: string,
    readonly genesisHash: string,
    readonly backend: ChainBackend,
    transport: RpcTransport,
    /** The embedded engine, when this cluster is local. */
    private readonly engine?: SolanaEngine,
  ) {
    this.transport = engine ?? transport;
  }

  /** The embedded engine (undefined for an external validator). */
  get localEngine(): SolanaEngine | undefined {
    return this.engine;
  }

  handleRpc(req: JsonRpcRequest): Promise<JsonRpcResponse> {
    return this.transport.request(req);
  }

  rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    return call<T>(this.transport, method, params);
  }

  async getBalance(address: string, asset?: string): Promise<bigint> {
    if (asset) {
      if (this.engine) return this.engine.tokenBalance(address, asset);
      const ata = associatedTokenAddress(address, asset);
      try {
        const r = await this.rpc<{ value: { amount: string } }>("getTokenAccountBalance", [ata]);
        return BigInt(r.value.amount);
      } catch {
        return 0n;
      }
    }
    const r = await this.rpc<{ value: number }>("getBalance", [address, { commitment: "confirmed" }]);
    return BigInt(r.value);
  }

  async getLatestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }> {
    const r = await this.rpc<{ value: { blockhash: string; lastValidBlockHeight: number } }>("getLatestBlockhash", [{ commitment: "confirmed" }]);
    return { blockhash: r.value.blockhash, lastValidBlockHeight: BigInt(r.value.lastValidBlockHeight) };
  }

  async getMinimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    return BigInt(await this.rpc<number>("getMinimumBalanceForRentExemption", [dataLength]));
  }

  /** Sends wire bytes (or their base64) with preflight; a failing simulation throws RpcError -32002. */
  async sendRawTransaction(raw: string | Uint8Array, opts: { skipPreflight?: boolean } = {}): Promise<string> {
    const encoded = typeof raw === "string" ? raw : base64.encode(raw);
    return this.rpc<string>("sendTransaction", [encoded, { encoding: "base64", skipPreflight: opts.skipPreflight ?? false, preflightCommitment: "confirmed" }]);
  }

  async getTransactionStatus(signature: string): Promise<TxStatus> {
    const r = await this.rpc<{ value: SignatureStatus[] }>("getSignatureStatuses", [[signature], { searchTransactionHistory: true }]);
    const s = r.value[0];
    if (!s) {
      if (this.engine?.isPending(signature)) return { status: "pending", hash: signature };
      const rejected = this.engine?.record(signature);
      if (rejected?.err) return { status: "failed", hash: signature, error: { message: solanaErrorMessage(rejected.err), solanaError: rejected.err, logs: rejected.meta.logs() } };
      return { status: "unknown", hash: signature };
    }
    const tx = await this.rpc<{ meta: { fee: number; logMessages?: string[] } } | null>("getTransaction", [signature, { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" }]);
    const fee = BigInt(tx?.meta.fee ?? 0);
    if (s.err) return { status: "failed", hash: signature, blockNumber: BigInt(s.slot), fee, error: { message: solanaErrorMessage(s.err), solanaError: s.err, logs: tx?.meta.logMessages ?? [] } };
    return { status: "included", hash: signature, blockNumber: BigInt(s.slot), fee };
  }

  async mine(blocks = 1): Promise<void> {
    this.local("mine").mine(blocks);
  }

  async setAutomine(enabled: boolean): Promise<void> {
    this.local("automine").automine = enabled;
  }

  get automining(): boolean {
    return this.engine?.automine ?? true;
  }

  async fund(address: string, amount: bigint, asset?: string): Promise<void> {
    if (this.engine) {
      if (asset) this.engine.fundToken(address, asset, amount);
      else this.engine.fund(address, amount);
      return;
    }
    if (asset) throw new RpcError(-32000, `funding tokens on an external cluster is not supported; mint ${asset} to ${address} with a transaction`);
    await this.rpc("requestAirdrop", [address, Number(amount)]);
  }

  private local(what: string): SolanaEngine {
    if (!this.engine) throw new RpcError(-32000, `${what} needs the embedded cluster; ${this.caip2} is served by an external validator`);
    return this.engine;
  }

  async close(): Promise<void> {}
}
