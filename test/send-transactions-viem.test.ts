/**
 * The flow every viem user writes: @turnkey/viem's account (signing through the emulator) and a
 * viem wallet client on the emulator's chain RPC; and `--chain <caip2>=<url>` external mode,
 * with a second emulator instance's chain RPC standing in for a user's Anvil.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, defineChain, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createAccount } from "@turnkey/viem";
import type { RunningEmulator } from "../emulator/index.js";
import { sdkClient, startTestEmulator } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

const emu = useTestEmulator();

const rpcUrlOf = (e: RunningEmulator, caip2: string) => `${e.info.baseUrl}/emulator/v1/chains/${caip2}/rpc`;

describe("@turnkey/viem account + viem wallet client on the emulator's RPC", () => {
  it("sends a transaction the local chain includes", async () => {
    const rpc = rpcUrlOf(emu, "eip155:8453");
    const chain = defineChain({ id: 8453, name: "Base (emulated)", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpc] } } });
    const account = await createAccount({ client: sdkClient(emu), organizationId: emu.info.organizationId, signWith: FROM });
    expect(account.address.toLowerCase()).toBe(FROM.toLowerCase());
    const wallet = createWalletClient({ account, chain, transport: http(rpc) });
    const reader = createPublicClient({ chain, transport: http(rpc) });
    const to = privateKeyToAccount(`0x${"66".repeat(32)}`).address;
    const hash = await wallet.sendTransaction({ to, value: parseEther("0.25") });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(FROM.toLowerCase());
    expect(await reader.getBalance({ address: to })).toBe(parseEther("0.25"));
  });
});

describe("external chains (--chain <caip2>=<url>)", () => {
  let node: RunningEmulator;
  let client: RunningEmulator;
  beforeAll(async () => {
    // The "node": another emulator's local chain, reached over its JSON-RPC URL like a user's Anvil.
    node = await startTestEmulator();
    client = await startTestEmulator({ chains: { "eip155:1": rpcUrlOf(node, "eip155:1") } });
  });
  afterAll(async () => {
    await client?.stop();
    await node?.stop();
  });

  it("sends, reports status and balances, funds and mines through the external node", async () => {
    const listing = client.info.chains.find((c) => c.caip2 === "eip155:1");
    expect(listing).toMatchObject({ backend: "external", externalUrl: rpcUrlOf(node, "eip155:1") });
    const nodeReader = createPublicClient({ transport: http(rpcUrlOf(node, "eip155:1")) });
    const to = privateKeyToAccount(`0x${"77".repeat(32)}`).address;

    const sent = await sdkClient(client).ethSendTransaction({ from: FROM, caip2: "eip155:1", calls: [{ to, value: parseEther("2").toString() }] });
    let status = await sdkClient(client).getSendTransactionStatus({ sendTransactionStatusId: sent.sendTransactionStatusId });
    for (let i = 0; i < 50 && status.txStatus === "BROADCASTING"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = await sdkClient(client).getSendTransactionStatus({ sendTransactionStatusId: sent.sendTransactionStatusId });
    }
    expect(status.txStatus).toBe("INCLUDED");
    // The node's own chain has the transaction and the balance.
    const receipt = await nodeReader.getTransactionReceipt({ hash: status.eth!.txHash as Hex });
    expect(receipt.status).toBe("success");
    expect(await nodeReader.getBalance({ address: to })).toBe(parseEther("2"));
    const balances = await sdkClient(client).getWalletAddressBalances({ address: to, caip2: "eip155:1" });
    expect(balances.balances?.[0]?.balance).toBe(parseEther("2").toString());

    // Controls go to the node through its dev methods (hardhat_setBalance, evm_mine).
    const fund = await fetch(`${client.info.baseUrl}/emulator/v1/chains/eip155:1/fund`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address: to, amount: "5" }) });
    expect(fund.status).toBe(200);
    expect(await nodeReader.getBalance({ address: to })).toBe(parseEther("2") + 5n);
    const before = await nodeReader.getBlockNumber({ cacheTime: 0 });
    const mine = await fetch(`${client.info.baseUrl}/emulator/v1/chains/eip155:1/mine`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ blocks: 3 }) });
    expect(mine.status).toBe(200);
    expect(await nodeReader.getBlockNumber({ cacheTime: 0 })).toBe(before + 3n);
  });
});
