/**
 * The embedded EVM chains, seen through viem's public and wallet clients on the emulator's
 * JSON-RPC URL (the way an application talks to a node).
 */
import { describe, expect, it } from "vitest";
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  keccak256,
  parseEther,
  toHex,
  type Hex,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { useTestEmulator } from "../use-test-emulator.js";

// Anvil's / Hardhat's account 0 (the `test test ... junk` mnemonic): public test key.
const ANVIL_0_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const FIXTURE_ACCOUNTS = ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"] as const;

/** Init code deploying `runtime` (CODECOPY + RETURN). */
function deployCode(runtime: string): Hex {
  const len = (runtime.length / 2).toString(16).padStart(2, "0");
  return `0x60${len}600c60003960${len}6000f3${runtime}`;
}
/** Runtime that reverts every call with Error("nope"). */
function revertingRuntime(): string {
  const data = "08c379a0" + (32).toString(16).padStart(64, "0") + (4).toString(16).padStart(64, "0") + Buffer.from("nope").toString("hex").padEnd(64, "0");
  const len = (data.length / 2).toString(16).padStart(2, "0");
  return `60${len}600c60003960${len}6000fd${data}`;
}
const TOPIC = keccak256(toHex("Ping()"));
/** Runtime that emits LOG1(TOPIC) and stops. */
const LOGGING_RUNTIME = `7f${TOPIC.slice(2)}60006000a100`;

const emu = useTestEmulator();

function clients(caip2: string, chainId: number) {
  const rpcUrl = `${emu.url}/emulator/v1/chains/${caip2}/rpc`;
  const chain = defineChain({ id: chainId, name: caip2, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 20 }) as PublicClient;
  const wallet = createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(ANVIL_0_KEY) });
  return { rpcUrl, publicClient, wallet };
}

async function control(caip2: string, action: string, body: unknown) {
  const r = await fetch(`${emu.url}/emulator/v1/chains/${caip2}/${action}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as any };
}

describe("local EVM chains over JSON-RPC", () => {
  it("lists every chain with its RPC URL in /emulator/v1/info, none started before use", async () => {
    const info = (await (await fetch(`${emu.url}/emulator/v1/info`)).json()) as { chains: { caip2: string; rpcUrl: string; started: boolean }[] };
    const base = info.chains.find((c) => c.caip2 === "eip155:8453");
    expect(base?.rpcUrl).toBe(`${emu.url}/emulator/v1/chains/eip155:8453/rpc`);
    expect(info.chains.map((c) => c.caip2)).toEqual(expect.arrayContaining(["eip155:1", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"]));
  });

  it("pre-funds every fixture EVM account with 10,000 ETH, on the chain id of its caip2", async () => {
    const { publicClient } = clients("eip155:8453", 8453);
    expect(await publicClient.getChainId()).toBe(8453);
    for (const a of FIXTURE_ACCOUNTS) expect(await publicClient.getBalance({ address: a })).toBe(parseEther("10000"));
    const { publicClient: mainnet } = clients("eip155:1", 1);
    expect(await mainnet.getChainId()).toBe(1);
    expect(await mainnet.getBalance({ address: FIXTURE_ACCOUNTS[0] })).toBe(parseEther("10000"));
  });

  it("a viem local account sends 1 ETH (EIP-1559) and waitForTransactionReceipt sees it included", async () => {
    const { publicClient, wallet } = clients("eip155:1", 1);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const before = await publicClient.getBalance({ address: FIXTURE_ACCOUNTS[0] });
    const hash = await wallet.sendTransaction({ to, value: parseEther("1") });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(receipt.type).toBe("eip1559");
    expect(await publicClient.getBalance({ address: to })).toBe(parseEther("1"));
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await publicClient.getBalance({ address: FIXTURE_ACCOUNTS[0] })).toBe(before - parseEther("1") - fee);
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.transactions).toContain(hash);
    expect(receipt.effectiveGasPrice).toBeGreaterThanOrEqual(block.baseFeePerGas!);
  });

  it("keeps chains apart: a transfer on eip155:1 leaves eip155:8453 untouched", async () => {
    const { publicClient } = clients("eip155:8453", 8453);
    expect(await publicClient.getBalance({ address: FIXTURE_ACCOUNTS[0] })).toBe(parseEther("10000"));
  });

  it("reports a revert reason to eth_call / simulate and marks the mined transaction reverted", async () => {
    const { publicClient, wallet } = clients("eip155:1", 1);
    const deploy = await wallet.sendTransaction({ data: deployCode(revertingRuntime()) });
    const { contractAddress } = await publicClient.waitForTransactionReceipt({ hash: deploy });
    expect(contractAddress).toBeTruthy();
    const abi = [{ type: "function", name: "poke", stateMutability: "nonpayable", inputs: [], outputs: [] }] as const;
    const err = await publicClient.simulateContract({ address: contractAddress!, abi, functionName: "poke", account: wallet.account }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BaseError);
    const revert = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
    expect(revert?.reason).toBe("nope");
    await expect(publicClient.estimateGas({ account: wallet.account, to: contractAddress! })).rejects.toThrow(/nope/);

    // Sent anyway (fixed gas, no estimate): mined with status 0, and the chain layer says why.
    const hash = await wallet.sendTransaction({ to: contractAddress!, gas: 100_000n });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("reverted");
    const status = await (await emu.runtime.families.chains.networks.evm("eip155:1")).getTransactionStatus(hash);
    expect(status).toMatchObject({ status: "failed", blockNumber: receipt.blockNumber, error: { revertReason: "nope" } });
  });

  it("returns logs in receipts and eth_getLogs", async () => {
    const { publicClient, wallet } = clients("eip155:1", 1);
    const { contractAddress } = await publicClient.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ data: deployCode(LOGGING_RUNTIME) }) });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: contractAddress! }) });
    expect(receipt.logs).toHaveLength(1);
    expect(receipt.logs[0]!.topics[0]).toBe(TOPIC);
    const logs = await publicClient.getLogs({ address: contractAddress!, fromBlock: receipt.blockNumber, toBlock: receipt.blockNumber });
    expect(logs.map((l) => l.transactionHash)).toEqual([receipt.transactionHash]);
  });

  it("with automine off holds a transaction pending until /mine", async () => {
    const { publicClient, wallet } = clients("eip155:137", 137);
    expect((await control("eip155:137", "automine", { enabled: false })).json).toEqual({ caip2: "eip155:137", automine: false });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({ to, value: 5n });
    await expect(publicClient.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/);
    expect((await publicClient.getTransaction({ hash })).blockNumber).toBeNull();
    expect(await publicClient.getBalance({ address: to })).toBe(0n);
    expect(await publicClient.getTransactionCount({ address: FIXTURE_ACCOUNTS[0], blockTag: "pending" })).toBe(1);
    expect(await (await emu.runtime.families.chains.networks.evm("eip155:137")).getTransactionStatus(hash)).toEqual({ status: "pending", hash });

    expect((await control("eip155:137", "mine", {})).json).toEqual({ caip2: "eip155:137", mined: 1 });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(await publicClient.getBalance({ address: to })).toBe(5n);
    await control("eip155:137", "automine", { enabled: true });
  });

  it("funds any address through /fund (amount in wei, added to the balance)", async () => {
    const { publicClient } = clients("eip155:56", 56);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const r = await control("eip155:56", "fund", { address: to, amount: parseEther("2.5").toString() });
    expect(r).toEqual({ status: 200, json: { caip2: "eip155:56", address: to, balance: parseEther("2.5").toString() } });
    await control("eip155:56", "fund", { address: to, amount: "1" });
    expect(await publicClient.getBalance({ address: to })).toBe(parseEther("2.5") + 1n);
  });

  it("rejects bad control input with an rpcStatus naming the field, and unknown chains", async () => {
    const bad = await control("eip155:1", "fund", { address: "0x1234", amount: "1" });
    expect(bad.status).toBe(400);
    expect(bad.json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0].field).toBe("address");
    const amount = await control("eip155:1", "fund", { address: FIXTURE_ACCOUNTS[0], amount: "-3" });
    expect(amount.status).toBe(400);
    expect(amount.json.message).toMatch(/amount/);
    const automine = await control("eip155:1", "automine", { enabled: "yes" });
    expect(automine.status).toBe(400);
    const unknown = await control("eip155:999999", "mine", {});
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/unsupported caip2/);

    const rpc = await fetch(`${emu.url}/emulator/v1/chains/eip155:999999/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_chainId" }) });
    expect(rpc.status).toBe(404);
    expect(await rpc.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32000 } });
    const garbage = await fetch(`${emu.url}/emulator/v1/chains/eip155:1/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(await garbage.json()).toMatchObject({ error: { code: -32700 } });
  });

  it("answers JSON-RPC batches in order", async () => {
    const { rpcUrl } = clients("eip155:1", 1);
    const r = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "eth_chainId" }, { jsonrpc: "2.0", id: 2, method: "net_version" }, { jsonrpc: "2.0", id: 3, method: "no_such_method" }]) });
    const out = (await r.json()) as any[];
    expect(out.map((x) => x.id)).toEqual([1, 2, 3]);
    expect(out[0].result).toBe("0x1");
    expect(out[1].result).toBe("1");
    expect(out[2].error.code).toBeLessThan(0);
  });

  it("rejects a replayed transaction with the node's nonce error", async () => {
    const { publicClient, wallet } = clients("eip155:10", 10);
    const request = await wallet.prepareTransactionRequest({ to: FIXTURE_ACCOUNTS[1], value: 1n });
    const raw = await wallet.signTransaction(request);
    const hash = await publicClient.sendRawTransaction({ serializedTransaction: raw });
    await publicClient.waitForTransactionReceipt({ hash });
    await expect(publicClient.sendRawTransaction({ serializedTransaction: raw })).rejects.toThrow(/nonce/i);
  });
});
