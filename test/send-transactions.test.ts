/**
 * eth_send_transaction, get_send_transaction_status and get_wallet_address_balances through
 * @turnkey/sdk-server, checked against viem's public client on the chain's own JSON-RPC URL
 * (an independent reader of the same chain).
 */
import { describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sdkClient } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
// Anvil's / Hardhat's account 0 (public test key), only used here to deploy a contract through viem.
const ANVIL_0_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

/** Init code that deploys a runtime reverting every call with Error("nope"). */
function revertingContractInitCode(): Hex {
  const data = "08c379a0" + (32).toString(16).padStart(64, "0") + (4).toString(16).padStart(64, "0") + Buffer.from("nope").toString("hex").padEnd(64, "0");
  const dlen = (data.length / 2).toString(16).padStart(2, "0");
  const runtime = `60${dlen}600c60003960${dlen}6000fd${data}`;
  const len = (runtime.length / 2).toString(16).padStart(2, "0");
  return `0x60${len}600c60003960${len}6000f3${runtime}`;
}

const emu = useTestEmulator();

function rpcUrl(caip2: string): string {
  return `${emu.info.baseUrl}/emulator/v1/chains/${caip2}/rpc`;
}

async function pollStatus(id: string, until: (s: string) => boolean = (s) => s !== "BROADCASTING") {
  const client = sdkClient(emu);
  for (let i = 0; i < 50; i++) {
    const s = await client.getSendTransactionStatus({ sendTransactionStatusId: id });
    if (until(s.txStatus)) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`status ${id} never settled`);
}

describe("eth_send_transaction", () => {
  for (const caip2 of ["eip155:1", "eip155:8453"] as const) {
    it(`sends 1 ETH from the fixture account on ${caip2}; status INCLUDED; balances move on the chain`, async () => {
      const client = sdkClient(emu);
      const to = privateKeyToAccount(`0x${"11".repeat(32)}`).address;
      const chain = createPublicClient({ transport: http(rpcUrl(caip2)) });
      const fromBefore = await chain.getBalance({ address: FROM });
      const toBefore = await chain.getBalance({ address: to });
      const sent = await client.ethSendTransaction({ from: FROM, caip2, calls: [{ to, value: parseEther("1").toString() }] });
      expect(sent.sendTransactionStatusId).toMatch(/[0-9a-f-]{36}/);
      const status = await pollStatus(sent.sendTransactionStatusId);
      expect(status.txStatus).toBe("INCLUDED");
      const hash = status.eth!.txHash as Hex;
      const receipt = await chain.getTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      expect(receipt.from.toLowerCase()).toBe(FROM.toLowerCase());
      expect(await chain.getBalance({ address: to })).toBe(toBefore + parseEther("1"));
      const fee = receipt.gasUsed * receipt.effectiveGasPrice;
      expect(await chain.getBalance({ address: FROM })).toBe(fromBefore - parseEther("1") - fee);
      const b = await client.getWalletAddressBalances({ address: to, caip2 });
      expect(b.balances?.[0]).toMatchObject({ symbol: "ETH", decimals: 18, balance: (toBefore + parseEther("1")).toString() });
    });
  }

  it("a call that reverts is FAILED with the revert reason", async () => {
    const caip2 = "eip155:1";
    const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_0_KEY), transport: http(rpcUrl(caip2)) });
    const chain = createPublicClient({ transport: http(rpcUrl(caip2)) });
    const deploy = await wallet.sendTransaction({ chain: null, data: revertingContractInitCode() });
    const contract = (await chain.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
    const sent = await sdkClient(emu).ethSendTransaction({ from: FROM, caip2, calls: [{ to: contract, data: "0x12345678" }] });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("FAILED");
    expect(status.error?.message).toContain("nope");
    expect(JSON.stringify(status.error?.eth?.revertChain)).toContain("nope");
    const receipt = await chain.getTransactionReceipt({ hash: status.eth!.txHash as Hex });
    expect(receipt.status).toBe("reverted");
  });

  it("stays BROADCASTING while automine is off, INCLUDED after a mine", async () => {
    const caip2 = "eip155:84532";
    const control = (path: string, body: unknown) =>
      fetch(`${emu.info.baseUrl}/emulator/v1/chains/${caip2}/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => expect(r.status).toBe(200));
    await control("automine", { enabled: false });
    const sent = await sdkClient(emu).ethSendTransaction({ from: FROM, caip2, calls: [{ to: FROM, value: "1" }] });
    const first = await sdkClient(emu).getSendTransactionStatus({ sendTransactionStatusId: sent.sendTransactionStatusId });
    expect(first.txStatus).toBe("BROADCASTING");
    await control("mine", {});
    expect((await pollStatus(sent.sendTransactionStatusId)).txStatus).toBe("INCLUDED");
    await control("automine", { enabled: true });
  });

  it("bad input names the field and never broadcasts", async () => {
    const client = sdkClient(emu);
    const chain = createPublicClient({ transport: http(rpcUrl("eip155:1")) });
    const nonceBefore = await chain.getTransactionCount({ address: FROM });
    const cases: [Record<string, unknown>, string][] = [
      [{ from: "0x000000000000000000000000000000000000dEaD", caip2: "eip155:1", calls: [{ to: FROM }] }, "parameters.from"],
      [{ from: FROM, caip2: "eip155:1", calls: [{ to: "nope" }] }, "parameters.calls[0].to"],
      [{ from: FROM, caip2: "eip155:1", calls: [{ to: FROM, value: (10n ** 30n).toString() }] }, "parameters.from"],
      [{ from: FROM, caip2: "eip155:1", nonce: "0", calls: [{ to: FROM }] }, "parameters.nonce"],
    ];
    for (const [params, field] of cases) {
      const err = await client.ethSendTransaction(params as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, field).toBeDefined();
      expect(JSON.stringify(err), field).toContain(field);
    }
    expect(await chain.getTransactionCount({ address: FROM })).toBe(nonceBefore);
  });
});

describe("get_nonces", () => {
  it("reports the chain's next nonce for the address", async () => {
    const caip2 = "eip155:11155111";
    const chain = createPublicClient({ transport: http(rpcUrl(caip2)) });
    const client = sdkClient(emu);
    await client.ethSendTransaction({ from: FROM, caip2, calls: [{ to: FROM, value: "1" }] });
    const r = await client.getNonces({ address: FROM, caip2, nonce: true });
    expect(String(r.nonce)).toBe(String(await chain.getTransactionCount({ address: FROM, blockTag: "pending" })));
    expect(String(r.nonce)).toBe("1");
  });
});

describe("list_supported_assets", () => {
  it("lists the chain's native asset, the one get_wallet_address_balances reports", async () => {
    const client = sdkClient(emu);
    const assets = await client.listSupportedAssets({ caip2: "eip155:8453" });
    const balances = await client.getWalletAddressBalances({ address: FROM, caip2: "eip155:8453" });
    expect(assets.assets).toEqual([expect.objectContaining({ symbol: "ETH", decimals: 18, caip19: balances.balances?.[0]?.caip19 })]);
  });
});
