/**
 * The embedded EVM: one Hardhat EDR provider (revm in Rust, the Hardhat network's engine)
 * per chain. EDR answers the standard Ethereum JSON-RPC itself, plus the dev methods
 * (`evm_mine`, `evm_setAutomine`, `hardhat_setBalance`...). Loaded on the first use of an EVM
 * chain only: importing this module costs nothing until `createEvmEngine` runs.
 */
import { hexToBytes } from "viem";
import { GrpcCode, TurnkeyError } from "../../core/errors.js";
import { RpcCode, type JsonRpcRequest, type JsonRpcResponse, type RpcTransport } from "./rpc.js";

type Edr = typeof import("@nomicfoundation/edr");
type EdrProvider = Awaited<ReturnType<InstanceType<Edr["EdrContext"]>["createProvider"]>>;

let edrContext: Promise<{ edr: Edr; context: InstanceType<Edr["EdrContext"]> }> | undefined;

/**
 * The one line that adds EDR. It is an optional peer dependency: version 0.13 (the last for Node 20)
 * carries the native binaries of all seven platforms (~190 MB), so the package does not pull it in
 * for projects that never run a local EVM chain.
 */
export const EDR_INSTALL = "npm i -D @nomicfoundation/edr@^0.13.0";

/** Whether `e` says that `@nomicfoundation/edr` itself could not be found (not one of its own imports). */
function edrMissing(e: unknown): boolean {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  return (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") && /['"]@nomicfoundation\/edr['"]/.test(String(message));
}

let warned = false;

/** EDR wants one context per process; every chain of every instance shares it. */
function context() {
  edrContext ??= (async () => {
    let edr: Edr;
    try {
      edr = await import("@nomicfoundation/edr");
    } catch (e) {
      edrContext = undefined; // installed later in a long-lived process: the next chain tries again
      if (!edrMissing(e)) throw e;
      const message = `local EVM chains need the optional package @nomicfoundation/edr, which is not installed: run \`${EDR_INSTALL}\` (or pass --chain <caip2>=<rpc url> to use an external node)`;
      if (!warned) console.error(`emulator: ${message}`);
      warned = true;
      throw new TurnkeyError(GrpcCode.FAILED_PRECONDITION, message, []);
    }
    const context = new edr.EdrContext();
    await context.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory());
    return { edr, context };
  })();
  return edrContext;
}

export type EvmGenesisAccount = { address: `0x${string}`; balance: bigint };

/** EIP-7825's per-transaction gas cap (Osaka): the default gas for calls and estimates. */
const TX_GAS_CAP = 16_777_216n;
const BLOCK_GAS_LIMIT = 60_000_000n;
/** Hardhat's coinbase. */
const COINBASE = "0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e";

/** The methods that mine a block under automine (or always): each takes the clock's time first. */
const MINING = new Set(["eth_sendRawTransaction", "eth_sendTransaction", "evm_mine", "hardhat_mine"]);

/**
 * `now` is the instance's clock (ms): the genesis block takes its time, and every block mined
 * after it takes the clock's time then (one second past its parent when the clock is not
 * ahead of it: timestamps only go up), so contracts that read `block.timestamp` follow the
 * emulated clock when the control API moves it.
 */
export async function createEvmEngine(chainId: number, accounts: EvmGenesisAccount[], now: () => number = Date.now): Promise<RpcTransport> {
  const { edr, context: ctx } = await context();
  const hardfork = edr.l1HardforkLatest();
  const genesisState = [...edr.l1GenesisState(hardfork), ...accounts.map((a) => ({ address: hexToBytes(a.address), balance: a.balance }))];
  const provider: EdrProvider = await ctx.createProvider(
    edr.L1_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: false,
      allowUnlimitedContractSize: false,
      // A reverting eth_call/eth_estimateGas is a JSON-RPC error (as on any node), not a result.
      bailOnCallFailure: true,
      // A reverting transaction is mined with status 0, as on a real chain.
      bailOnTransactionFailure: false,
      chainId: BigInt(chainId),
      coinbase: hexToBytes(COINBASE),
      defaultTransactionGasLimit: TX_GAS_CAP,
      genesisState,
      hardfork: edr.l1HardforkToString(hardfork),
      initialBaseFeePerGas: 1_000_000_000n,
      minGasPrice: 0n,
      mining: { autoMine: true, blockGasLimit: BLOCK_GAS_LIMIT, memPool: { order: edr.MineOrdering.Priority } },
      network: { genesisBlockGasLimit: BLOCK_GAS_LIMIT, genesisBlockTime: BigInt(Math.floor(now() / 1000)) },
      networkId: BigInt(chainId),
      observability: {},
      ownedAccounts: [],
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new edr.ContractDecoder(),
  );
  type EdrAnswer = { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  const send = async (method: string, params: unknown): Promise<EdrAnswer> => {
    const response = await provider.handleRequest(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
    return (typeof response.data === "string" ? JSON.parse(response.data) : response.data) as EdrAnswer;
  };
  /** Sets the next block's time to the clock's (past the latest block's); EDR keeps the offset for later blocks. */
  const followClock = async (): Promise<void> => {
    const latest = (await send("eth_getBlockByNumber", ["latest", false])).result as { timestamp: string };
    const next = BigInt(Math.max(Math.floor(now() / 1000), Number(BigInt(latest.timestamp)) + 1));
    await send("evm_setNextBlockTimestamp", [`0x${next.toString(16)}`]);
  };
  // A block's time is set and the block mined as one step: concurrent sends cannot interleave them.
  let mining: Promise<EdrAnswer> = Promise.resolve({});
  const answer = async (req: JsonRpcRequest): Promise<JsonRpcResponse> => {
    const params = req.params ?? [];
    const timed = MINING.has(req.method) && !(req.method === "evm_mine" && Array.isArray(params) && params[0] !== undefined);
    const data = timed
      ? await (mining = mining.catch(() => undefined).then(async () => {
          await followClock();
          return send(req.method, params);
        }))
      : await send(req.method, params);
    // EDR answers {result} or {error}; the envelope is ours to add.
    const id = req.id ?? null;
    return data.error ? { jsonrpc: "2.0", id, error: standardError(data.error) } : { jsonrpc: "2.0", id, result: data.result ?? null };
  };
  return { request: answer };
}

/**
 * EDR reports a revert as `{code: -32000, data: {data: <revert bytes>, reason}}`; Geth and
 * Anvil say `{code: 3, message: "execution reverted: <reason>", data: <revert bytes>}`, which
 * is what viem and ethers decode best. Everything else passes through unchanged.
 */
function standardError(e: { code: number; message: string; data?: unknown }) {
  const inner = e.data as { data?: unknown; reason?: unknown } | null | undefined;
  if (inner && typeof inner === "object" && typeof inner.data === "string" && inner.data.startsWith("0x") && inner.reason !== undefined) {
    const m = /reverted with reason string '([\s\S]*)'$/.exec(e.message);
    const message = m ? `execution reverted: ${m[1]}` : e.message.startsWith("VM Exception") || !e.message.includes("revert") ? `execution reverted: ${e.message}` : e.message;
    return { code: RpcCode.EXECUTION_REVERTED, message, data: inner.data };
  }
  return e;
}
