/**
 * An EVM chain over JSON-RPC: the same code drives the embedded engine and an external node
 * (Anvil and Hardhat both answer the `evm_*` / `hardhat_*` dev methods used for the controls).
 */
import { decodeAbiParameters, encodeFunctionData, keccak256, numberToHex, pad, toHex, type Hex } from "viem";
import type { Chain, ChainBackend, TxStatus } from "./chain.js";
import { call, RpcError, type JsonRpcRequest, type JsonRpcResponse, type RpcTransport } from "./rpc.js";
import { RequestGate } from "./request-gate.js";

export type EvmCallRequest = { from?: string; to?: string | null; data?: string; value?: bigint; gas?: bigint };
export type EvmFeeData = { baseFeePerGas: bigint; maxPriorityFeePerGas: bigint; gasPrice: bigint };
type RpcReceipt = { status: Hex; blockNumber: Hex; blockHash: Hex; gasUsed: Hex; effectiveGasPrice?: Hex; transactionHash: Hex };
type RpcTx = { from: Hex; to: Hex | null; input: Hex; value: Hex; gas: Hex; blockNumber: Hex | null };

const ERC20_BALANCE_OF = [{ type: "function", name: "balanceOf", stateMutability: "view", inputs: [{ name: "a", type: "address" }], outputs: [{ type: "uint256" }] }] as const;

export class EvmChain implements Chain {
  readonly namespace = "eip155" as const;
  private automine = true;
  /** Every request passes it; `fund` holds it alone (its read and write are one step). */
  private readonly gate = new RequestGate();
  constructor(
    readonly caip2: string,
    readonly chainId: number,
    readonly backend: ChainBackend,
    private readonly transport: RpcTransport,
  ) {}

  handleRpc(req: JsonRpcRequest): Promise<JsonRpcResponse> {
    return this.gate.shared(() => this.transport.request(req));
  }

  /** Calls one JSON-RPC method; throws RpcError with the node's error. */
  rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    return this.gate.shared(() => this.ungated<T>(method, params));
  }

  /** A call past the gate: only inside its exclusive section. */
  private ungated<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    return call<T>(this.transport, method, params);
  }

  getBalance(address: string, asset?: string): Promise<bigint> {
    return this.gate.shared(() => this.balanceOf(address, asset));
  }

  private async balanceOf(address: string, asset?: string): Promise<bigint> {
    if (asset) {
      const data = encodeFunctionData({ abi: ERC20_BALANCE_OF, functionName: "balanceOf", args: [address as Hex] });
      const out = await this.ungated<Hex>("eth_call", [rpcCallObject({ to: asset, data }), "latest"]);
      return out === "0x" ? 0n : BigInt(out);
    }
    return BigInt(await this.ungated<Hex>("eth_getBalance", [address, "latest"]));
  }

  /** The next nonce: `pending` counts transactions waiting in the mempool. */
  async getNonce(address: string, blockTag: "latest" | "pending" = "pending"): Promise<bigint> {
    return BigInt(await this.rpc<Hex>("eth_getTransactionCount", [address, blockTag]));
  }

  async getFeeData(): Promise<EvmFeeData> {
    const block = await this.rpc<{ baseFeePerGas?: Hex }>("eth_getBlockByNumber", ["latest", false]);
    const [tip, gasPrice] = await Promise.all([this.rpc<Hex>("eth_maxPriorityFeePerGas").catch(() => "0x0" as Hex), this.rpc<Hex>("eth_gasPrice")]);
    return { baseFeePerGas: BigInt(block.baseFeePerGas ?? "0x0"), maxPriorityFeePerGas: BigInt(tip), gasPrice: BigInt(gasPrice) };
  }

  /** eth_call; a revert throws RpcError whose `data` is the revert data. */
  call(req: EvmCallRequest, blockTag: string = "latest"): Promise<Hex> {
    return this.rpc<Hex>("eth_call", [rpcCallObject(req), blockTag]);
  }

  async estimateGas(req: EvmCallRequest): Promise<bigint> {
    return BigInt(await this.rpc<Hex>("eth_estimateGas", [rpcCallObject(req)]));
  }

  async sendRawTransaction(raw: string | Uint8Array): Promise<string> {
    const hex = typeof raw === "string" ? raw : toHex(raw);
    return this.rpc<string>("eth_sendRawTransaction", [hex]);
  }

  async getTransactionStatus(hash: string): Promise<TxStatus> {
    const receipt = await this.rpc<RpcReceipt | null>("eth_getTransactionReceipt", [hash]);
    if (!receipt) {
      const tx = await this.rpc<RpcTx | null>("eth_getTransactionByHash", [hash]);
      return tx ? { status: "pending", hash } : { status: "unknown", hash };
    }
    const blockNumber = BigInt(receipt.blockNumber);
    const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? "0x0");
    if (BigInt(receipt.status) === 1n) return { status: "included", hash, blockNumber, blockHash: receipt.blockHash, fee };
    return { status: "failed", hash, blockNumber, blockHash: receipt.blockHash, fee, error: await this.revertOf(hash, blockNumber) };
  }

  /**
   * Why a mined transaction reverted: replays it with eth_call on the state before its
   * block (exact when it was alone in its block, as under automine).
   */
  private async revertOf(hash: string, blockNumber: bigint): Promise<{ message: string; revertReason?: string; revertData?: string }> {
    const tx = await this.rpc<RpcTx>("eth_getTransactionByHash", [hash]);
    try {
      await this.call({ from: tx.from, to: tx.to, data: tx.input, value: BigInt(tx.value), gas: BigInt(tx.gas) }, numberToHex(blockNumber - 1n));
      return { message: "execution reverted" };
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      const revertData = typeof err.data === "string" && err.data.startsWith("0x") ? err.data : undefined;
      const revertReason = revertData ? decodeRevert(revertData) : undefined;
      return { message: revertReason ? `execution reverted: ${revertReason}` : err.message, ...(revertReason ? { revertReason } : {}), ...(revertData ? { revertData } : {}) };
    }
  }

  async mine(blocks = 1): Promise<void> {
    for (let i = 0; i < blocks; i++) await this.rpc("evm_mine");
  }

  async setAutomine(enabled: boolean): Promise<void> {
    await this.rpc("evm_setAutomine", [enabled]);
    this.automine = enabled;
  }

  get automining(): boolean {
    return this.automine;
  }

  /**
   * Credits `amount`: the dev methods only set a balance, so this reads it and writes it plus
   * `amount` with every other request held at the gate (concurrent funds add up, and no
   * transaction lands between the read and the write). Requests other clients send straight to
   * an external node are beyond the gate.
   */
  fund(address: string, amount: bigint, asset?: string): Promise<void> {
    return this.gate.exclusive(async () => {
      if (asset) return this.fundErc20(address, amount, asset);
      const balance = await this.balanceOf(address);
      await this.ungated("hardhat_setBalance", [address, numberToHex(balance + amount)]);
    });
  }

  /**
   * ERC-20 balances live in a `mapping(address => uint256)` at a slot that depends on the
   * token's source. Find it the way Foundry's `deal` does: write a candidate slot and see
   * whether balanceOf follows; put the slot back when it does not.
   */
  private async fundErc20(address: string, amount: bigint, token: string): Promise<void> {
    const before = await this.balanceOf(address, token);
    const target = before + amount;
    const holder = pad(address as Hex);
    for (let slot = 0n; slot < 32n; slot++) {
      const slotWord = pad(numberToHex(slot));
      for (const key of [keccak256(`0x${holder.slice(2)}${slotWord.slice(2)}`), keccak256(`0x${slotWord.slice(2)}${holder.slice(2)}`)]) {
        const old = await this.ungated<Hex>("eth_getStorageAt", [token, key, "latest"]);
        await this.ungated("hardhat_setStorageAt", [token, key, pad(numberToHex(target))]);
        if ((await this.balanceOf(address, token)) === target) return;
        await this.ungated("hardhat_setStorageAt", [token, key, pad(old)]);
      }
    }
    throw new RpcError(-32000, `cannot fund ${address} with token ${token}: no balance mapping found in its first 32 storage slots`);
  }

  async close(): Promise<void> {
    await this.transport.close?.();
  }
}

function rpcCallObject(req: EvmCallRequest) {
  return {
    ...(req.from ? { from: req.from } : {}),
    ...(req.to ? { to: req.to } : {}),
    ...(req.data ? { data: req.data } : {}),
    ...(req.value !== undefined ? { value: numberToHex(req.value) } : {}),
    ...(req.gas !== undefined ? { gas: numberToHex(req.gas) } : {}),
  };
}

/** `Error(string)` and `Panic(uint256)` revert data as text; anything else stays raw. */
export function decodeRevert(data: string): string | undefined {
  try {
    if (data.startsWith("0x08c379a0")) return decodeAbiParameters([{ type: "string" }], `0x${data.slice(10)}`)[0];
    if (data.startsWith("0x4e487b71")) return `panic code 0x${decodeAbiParameters([{ type: "uint256" }], `0x${data.slice(10)}`)[0].toString(16)}`;
  } catch {
    return undefined;
  }
  return undefined;
}

