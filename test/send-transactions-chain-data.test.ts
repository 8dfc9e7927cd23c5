/**
 * Token balances, supported assets, transaction histories and the send / balance events, through
 * @turnkey/sdk-server, checked against viem / @solana/web3.js / @solana/spl-token reading the
 * same chains over their JSON-RPC URLs.
 */
import { describe, expect, it, vi } from "vitest";
import { createPublicClient, createWalletClient, encodeFunctionData, getAddress, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { createAssociatedTokenAccountIdempotentInstruction, createMint, createTransferCheckedInstruction, getAccount, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { sdkClient, startTestEmulator, pollSendStatus } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { deliveries } from "./webhooks/support.js";
import { chainWatcher } from "../emulator/families/chains/watch.js";
import { TEST_TOKEN_ABI, TEST_TOKEN_BYTECODE } from "./networks/test-token.artifact.js";

const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
// Anvil's / Hardhat's public test key 0: the fixture wallet's first Ethereum account, used here to deploy through viem.
const ANVIL_0_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const FIXTURE_SOLANA = new PublicKey("oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96");
const DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const CAIP2 = "eip155:11155111";

const emu = useTestEmulator();

const rpcUrl = (caip2: string) => `${emu.info.baseUrl}/emulator/v1/chains/${caip2}/rpc`;

const pollStatus = (id: string) => pollSendStatus(emu, id);

describe("ERC-20 balances, supported assets, EVM history and events", () => {
  it("lists a deployed token, reports its balances, shows the transfers in the history and emits the events", async () => {
    const client = sdkClient(emu);
    const endpoint = await client.createWebhookEndpoint({
      name: "chain events",
      url: "http://127.0.0.1:9/never-delivered",
      subscriptions: [{ eventType: "SEND_TRANSACTION_STATUS_UPDATES" }, { eventType: "BALANCE_CONFIRMED_UPDATES" }],
    } as never);
    expect(endpoint).toBeDefined();

    const chain = createPublicClient({ transport: http(rpcUrl(CAIP2)) });
    const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_0_KEY), transport: http(rpcUrl(CAIP2)) });
    const deploy = await wallet.deployContract({ chain: null, abi: TEST_TOKEN_ABI, bytecode: TEST_TOKEN_BYTECODE, args: ["Test Dollar", "TUSD", 6, 1_000_000_000n] });
    const token = (await chain.waitForTransactionReceipt({ hash: deploy })).contractAddress!;

    const assets = await client.listSupportedAssets({ caip2: CAIP2 });
    expect(assets.assets).toContainEqual({ caip19: `${CAIP2}/erc20:${token.toLowerCase()}`, symbol: "TUSD", name: "Test Dollar", decimals: 6 });

    const to = privateKeyToAccount(`0x${"55".repeat(32)}`).address;
    const sent = await client.ethSendTransaction({ from: FROM, caip2: CAIP2, calls: [{ to: token, data: encodeFunctionData({ abi: TEST_TOKEN_ABI, functionName: "transfer", args: [to, 2_500_000n] }) }] });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const native = await client.ethSendTransaction({ from: FROM, caip2: CAIP2, calls: [{ to, value: parseEther("0.5").toString() }] });
    expect((await pollStatus(native.sendTransactionStatusId)).txStatus).toBe("INCLUDED");

    const held = await client.getWalletAddressBalances({ address: to, caip2: CAIP2 });
    const onChain = await chain.readContract({ address: token, abi: TEST_TOKEN_ABI, functionName: "balanceOf", args: [to] });
    expect(onChain).toBe(2_500_000n);
    expect(held.balances).toEqual([
      expect.objectContaining({ symbol: "ETH", balance: parseEther("0.5").toString(), display: { crypto: "0.5" } }),
      expect.objectContaining({ caip19: `${CAIP2}/erc20:${token.toLowerCase()}`, symbol: "TUSD", decimals: 6, balance: onChain.toString(), display: { crypto: "2.5" } }),
    ]);

    const history = await client.listEthTransactionHistory({ address: to, caip2: CAIP2 });
    expect(history.transactions.map((t) => t.transactionHash)).toEqual([(await client.getSendTransactionStatus({ sendTransactionStatusId: native.sendTransactionStatusId })).eth!.txHash, status.eth!.txHash]);
    const [ethIn, tokenIn] = history.transactions;
    expect(ethIn!.transfers).toEqual([expect.objectContaining({ direction: "IN", amount: parseEther("0.5").toString(), counterparty: FROM })]);
    expect(tokenIn!.transfers).toEqual([expect.objectContaining({ direction: "IN", amount: "2500000", counterparty: FROM, asset: expect.objectContaining({ symbol: "TUSD" }) })]);
    expect(tokenIn).toMatchObject({ from: FROM, to: getAddress(token), status: "FINALIZED", origin: "TURNKEY", turnkey: { sponsored: false } });
    const receipt = await chain.getTransactionReceipt({ hash: status.eth!.txHash as Hex });
    expect(tokenIn!.block.number).toBe(receipt.blockNumber.toString());
    expect(tokenIn!.fee.amount).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());

    const firstPage = await client.listEthTransactionHistory({ address: FROM, caip2: CAIP2, paginationOptions: { limit: "1" } });
    expect(firstPage.transactions).toHaveLength(1);
    expect(firstPage.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const secondPage = await client.listEthTransactionHistory({ address: FROM, caip2: CAIP2, paginationOptions: { limit: "1", after: firstPage.pageInfo!.endCursor! } });
    expect(secondPage.transactions[0]!.transactionHash).toBe(status.eth!.txHash);

    // Events: the status steps of the token send and the balance moves of the fixture account (a wallet address).
    await vi.waitFor(
      async () => {
        const ds = await deliveries(emu);
        const statuses = ds.filter((d) => d.eventType === "SEND_TRANSACTION_STATUS_UPDATES" && d.payload.msg.sendTransactionStatusId === sent.sendTransactionStatusId).map((d) => d.payload.msg.status);
        expect(statuses.sort()).toEqual(["BROADCASTING", "INCLUDED"]);
        const withdraw = ds.find((d) => d.eventType === "BALANCE_CONFIRMED_UPDATES" && d.payload.msg.txHash === status.eth!.txHash);
        expect(withdraw?.payload).toMatchObject({ type: "balances:confirmed", msg: { operation: "withdraw", address: FROM, caip2: CAIP2, asset: { symbol: "TUSD", amount: "2500000" } } });
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe("SPL balances and Solana history", () => {
  it("sends an SPL transfer with sol_send_transaction; balances, supported assets and history agree with spl-token", async () => {
    const client = sdkClient(emu);
    const connection = new Connection(rpcUrl(DEVNET), { commitment: "confirmed", wsEndpoint: rpcUrl(DEVNET).replace(/^http/, "ws") });
    const payer = Keypair.generate();
    const fund = (address: string, amount: string, asset?: string) =>
      fetch(`${emu.info.baseUrl}/emulator/v1/chains/${DEVNET}/fund`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address, amount, ...(asset ? { asset } : {}) }) }).then((r) => expect(r.status).toBe(200));
    await fund(payer.publicKey.toBase58(), String(5 * LAMPORTS_PER_SOL));
    const mint = await createMint(connection, payer, payer.publicKey, null, 6);
    await fund(FIXTURE_SOLANA.toBase58(), "7000000", mint.toBase58());

    const assets = await client.listSupportedAssets({ caip2: DEVNET });
    expect(assets.assets?.map((a) => a.caip19)).toContain(`${DEVNET}/token:${mint.toBase58()}`);

    const to = Keypair.generate().publicKey;
    const source = getAssociatedTokenAddressSync(mint, FIXTURE_SOLANA);
    const dest = getAssociatedTokenAddressSync(mint, to);
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: FIXTURE_SOLANA,
      recentBlockhash: blockhash,
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(FIXTURE_SOLANA, dest, to, mint),
        createTransferCheckedInstruction(source, mint, dest, FIXTURE_SOLANA, 3_000_000n, 6),
        SystemProgram.transfer({ fromPubkey: FIXTURE_SOLANA, toPubkey: to, lamports: LAMPORTS_PER_SOL / 10 }),
      ],
    }).compileToV0Message();
    const unsignedTransaction = Buffer.from(new VersionedTransaction(message).serialize()).toString("hex");
    const sent = await client.solSendTransaction({ unsignedTransaction, signWiths: [FIXTURE_SOLANA.toBase58()], caip2: DEVNET });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    expect((await getAccount(connection, dest)).amount).toBe(3_000_000n);

    const held = await client.getWalletAddressBalances({ address: to.toBase58(), caip2: DEVNET });
    expect(held.balances).toEqual([
      expect.objectContaining({ symbol: "SOL", balance: String(LAMPORTS_PER_SOL / 10) }),
      expect.objectContaining({ caip19: `${DEVNET}/token:${mint.toBase58()}`, decimals: 6, balance: "3000000", display: { crypto: "3" } }),
    ]);
    const mine = await client.getWalletAddressBalances({ address: FIXTURE_SOLANA.toBase58(), caip2: DEVNET });
    expect(mine.balances?.find((b) => b.caip19?.endsWith(mint.toBase58()))?.balance).toBe("4000000");

    const history = await client.listSolTransactionHistory({ address: FIXTURE_SOLANA.toBase58(), caip2: DEVNET });
    const item = history.transactions[0]!;
    expect(item.signature).toBe(status.solana!.signature);
    expect(item).toMatchObject({ feePayer: FIXTURE_SOLANA.toBase58(), signers: [{ address: FIXTURE_SOLANA.toBase58(), writable: true }], status: "FINALIZED", origin: "TURNKEY" });
    const tx = await connection.getTransaction(item.signature, { maxSupportedTransactionVersion: 0 });
    expect(item.fee.amount).toBe(String(tx!.meta!.fee));
    expect(item.block.number).toBe(String(tx!.slot));
    expect(item.transfers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ direction: "OUT", amount: "3000000", counterparty: to.toBase58(), asset: expect.objectContaining({ caip19: `${DEVNET}/token:${mint.toBase58()}`, decimals: 6 }) }),
        expect.objectContaining({ direction: "OUT", amount: String(LAMPORTS_PER_SOL / 10), counterparty: to.toBase58(), asset: expect.objectContaining({ symbol: "SOL" }) }),
      ]),
    );
  });
});

describe("chain events for a subscriber that came later", () => {
  it("a send made before any subscription raises no event; the next one raises its own only", async () => {
    const fresh = await startTestEmulator();
    try {
      const client = sdkClient(fresh);
      const to = privateKeyToAccount(`0x${"66".repeat(32)}`).address;
      const before = await client.ethSendTransaction({ from: FROM, caip2: CAIP2, calls: [{ to, value: parseEther("0.1").toString() }] });
      const beforeStatus = await pollSendStatus(fresh, before.sendTransactionStatusId);
      expect(beforeStatus.txStatus).toBe("INCLUDED");
      await chainWatcher(fresh.runtime)!.settle();

      await client.createWebhookEndpoint({
        name: "late",
        url: "http://127.0.0.1:9/never-delivered",
        subscriptions: [{ eventType: "SEND_TRANSACTION_STATUS_UPDATES" }, { eventType: "BALANCE_CONFIRMED_UPDATES" }],
      } as never);
      const after = await client.ethSendTransaction({ from: FROM, caip2: CAIP2, calls: [{ to, value: parseEther("0.2").toString() }] });
      const afterStatus = await pollSendStatus(fresh, after.sendTransactionStatusId);
      await vi.waitFor(
        async () => {
          const ds = await deliveries(fresh);
          expect(ds.filter((d) => d.eventType === "SEND_TRANSACTION_STATUS_UPDATES").map((d) => [d.payload.msg.sendTransactionStatusId, d.payload.msg.status]).sort()).toEqual([
            [after.sendTransactionStatusId, "BROADCASTING"],
            [after.sendTransactionStatusId, "INCLUDED"],
          ]);
          expect(ds.filter((d) => d.eventType === "BALANCE_CONFIRMED_UPDATES").map((d) => d.payload.msg.txHash)).toEqual([afterStatus.eth!.txHash]);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await fresh.stop();
    }
  });
});
