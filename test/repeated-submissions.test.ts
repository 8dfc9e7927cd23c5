/**
 * A repeated submission is the same activity, and its effect happens once (issue 37;
 * docs/activity-lifecycle.md "Identical submissions"). Each round sends 20 copies of one body
 * at once through the HTTP surface, either the same bytes with the same stamp (a proxy that
 * retried) or each stamped anew by the official stamper (a client's own retries); every answer
 * must be 200 with the same activity, one activity is recorded, and the chain, read with viem
 * or @solana/web3.js, holds exactly one transaction: the sender's nonce moved by one, the
 * recipient was paid once and the sender charged once. A second, different send that really
 * conflicts still fails as the chain refuses it. A Solana network refuses an identical signed
 * transaction twice, so there a second run shows as a second send the service announces: the
 * webhook outbox's SEND_TRANSACTION_STATUS_UPDATES must name only the sends the activities answered.
 */
import { describe, expect, it, vi } from "vitest";
import { createPublicClient, http, parseAbi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { createApiKeyUser, devKey, pollSendStatus, readJson, sdkClient, stampBody, submitBody, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { deliveries } from "./webhooks/support.js";
import type { RunningEmulator } from "../emulator/index.js";

const SEPOLIA = "eip155:11155111";
const BASE_SEPOLIA = "eip155:84532";
const SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
// The default fixture's first Ethereum account (Anvil's account 0) and its Solana account (`test test ... junk`).
const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const FIXTURE_SOLANA = new PublicKey("oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96");
const ZERO_BLOCKHASH = "11111111111111111111111111111111";
const COPIES = 20;
const ROUNDS = 20;

type Answer = { status: number; json: any };
type Stamping = "one stamp" | "stamped anew";

/** POSTs `body` `COPIES` times at once, with one stamp for all or each stamped anew (the official stamper signs with a fresh nonce). */
async function burst(emu: RunningEmulator, op: string, body: string, stamping: Stamping, key: KeyPair = devKey(emu)): Promise<Answer[]> {
  const once = stamping === "one stamp" ? await stampBody(body, key) : undefined;
  const stamps = await Promise.all(Array.from({ length: COPIES }, () => once ?? stampBody(body, key)));
  expect(new Set(stamps.map((s) => s.stampHeaderValue)).size).toBe(stamping === "one stamp" ? 1 : COPIES);
  return Promise.all(
    stamps.map(async (s) => {
      const res = await fetch(`${emu.url}/public/v1/submit/${op}`, { method: "POST", headers: { "content-type": "application/json", [s.stampHeaderName]: s.stampHeaderValue }, body });
      return { status: res.status, json: await readJson(res) };
    }),
  );
}

/** Every answer is 200 with one and the same activity; gives it. */
function theOneActivity(answers: Answer[]): any {
  for (const a of answers) expect(a.status, JSON.stringify(a.json)).toBe(200);
  expect(new Set(answers.map((a) => a.json.activity.id)).size).toBe(1);
  return answers[0]!.json.activity;
}

/** The recorded activities of `type` whose intent `matches`, as list_activities gives them. */
async function recorded(emu: RunningEmulator, type: string, matches: (intent: any) => boolean): Promise<any[]> {
  const { activities } = await sdkClient(emu).getActivities({ filterByType: [type as never], paginationOptions: { limit: "100" } });
  return activities.filter((a) => matches(a.intent));
}

/**
 * Subscribes a webhook endpoint (never delivered) to send statuses; gives a check that every
 * status announced on `caip2` is one of `answered`'s sends, once their INCLUDED is announced.
 */
async function sendAnnouncements(emu: RunningEmulator, caip2: string): Promise<(answered: string[]) => Promise<void>> {
  await sdkClient(emu).createWebhookEndpoint({ name: `sends on ${caip2}`, url: "http://127.0.0.1:9/never-delivered", subscriptions: [{ eventType: "SEND_TRANSACTION_STATUS_UPDATES" }] } as never);
  return async (answered) => {
    const announced = await vi.waitFor(
      async () => {
        const ds = (await deliveries(emu)).filter((d) => d.eventType === "SEND_TRANSACTION_STATUS_UPDATES" && d.payload.msg.caip2 === caip2);
        const included = new Set(ds.filter((d) => d.payload.msg.status === "INCLUDED").map((d) => d.payload.msg.sendTransactionStatusId));
        expect(answered.filter((id) => !included.has(id))).toEqual([]);
        return ds;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(new Set(announced.map((d) => d.payload.msg.sendTransactionStatusId))).toEqual(new Set(answered));
  };
}

describe("identical submissions with an effect on a chain run once", () => {
  const emu = useTestEmulator();
  const evm = (caip2: string) => createPublicClient({ transport: http(`${emu.info.baseUrl}/emulator/v1/chains/${caip2}/rpc`) });

  /** One round of eth_send_transaction copies: one activity, one transaction. */
  async function ethRound(stamping: Stamping): Promise<string> {
    const chain = evm(SEPOLIA);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const value = 10n ** 15n;
    const body = submitBody(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", { from: FROM, caip2: SEPOLIA, calls: [{ to, value: value.toString() }] });
    const nonceBefore = await chain.getTransactionCount({ address: FROM, blockTag: "pending" });
    const balanceBefore = await chain.getBalance({ address: FROM });

    const activity = theOneActivity(await burst(emu, "eth_send_transaction", body, stamping));
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(await recorded(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", (i) => i.ethSendTransactionIntentV2?.calls?.[0]?.to === to)).toHaveLength(1);

    const status = await pollSendStatus(emu, activity.result.ethSendTransactionResultV2.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = await chain.getTransactionReceipt({ hash: status.eth!.txHash as Hex });
    expect(await chain.getTransactionCount({ address: FROM, blockTag: "pending" })).toBe(nonceBefore + 1);
    expect(await chain.getBalance({ address: to })).toBe(value);
    expect(await chain.getBalance({ address: FROM })).toBe(balanceBefore - value - receipt.gasUsed * receipt.effectiveGasPrice);
    return activity.result.ethSendTransactionResultV2.sendTransactionStatusId;
  }

  it(`eth_send_transaction: ${COPIES} copies, one stamp or stamped anew, ${ROUNDS} times: one activity and one transaction each`, async () => {
    const announcedOnly = await sendAnnouncements(emu, SEPOLIA);
    const answered: string[] = [];
    for (let round = 0; round < ROUNDS; round++) answered.push(await ethRound("one stamp"), await ethRound("stamped anew"));
    await announcedOnly(answered);
  }, 120_000);

  /**
   * One round of sponsored sol_send_transaction copies: the gas station picks the latest blockhash
   * per execution, so a second run in a later slot would be a second transfer. Nothing reads the
   * cluster before the first burst: a cold cluster (started by the first request) is where
   * copies used to pile up.
   */
  async function solRound(connection: Connection, stamping: Stamping): Promise<string> {
    const to = Keypair.generate().publicKey;
    const lamports = 0.01 * LAMPORTS_PER_SOL;
    const message = new TransactionMessage({ payerKey: FIXTURE_SOLANA, recentBlockhash: ZERO_BLOCKHASH, instructions: [SystemProgram.transfer({ fromPubkey: FIXTURE_SOLANA, toPubkey: to, lamports })] }).compileToV0Message();
    const unsignedTransaction = Buffer.from(new VersionedTransaction(message).serialize()).toString("hex");
    const body = submitBody(emu, "ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2", { unsignedTransaction, signWiths: [FIXTURE_SOLANA.toBase58()], caip2: SOLANA, sponsor: true });

    const activity = theOneActivity(await burst(emu, "sol_send_transaction", body, stamping));
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(await recorded(emu, "ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2", (i) => i.solSendTransactionIntentV2?.unsignedTransaction === unsignedTransaction)).toHaveLength(1);

    const status = await pollSendStatus(emu, activity.result.solSendTransactionResultV2.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const signature = status.solana!.signature!;
    expect((await connection.getSignaturesForAddress(to)).map((s) => s.signature)).toEqual([signature]);
    expect(await connection.getBalance(to)).toBe(lamports);
    // Sponsored: the fee payer pays the fee, the sender exactly the transfer, in this transaction and no other.
    const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const sender = tx!.transaction.message.staticAccountKeys.findIndex((k) => k.equals(FIXTURE_SOLANA));
    expect(tx!.meta!.preBalances[sender]! - tx!.meta!.postBalances[sender]!).toBe(lamports);
    expect(await connection.getBalance(FIXTURE_SOLANA)).toBe(tx!.meta!.postBalances[sender]);
    return activity.result.solSendTransactionResultV2.sendTransactionStatusId;
  }

  it(`sol_send_transaction (sponsored): ${COPIES} copies, one stamp or stamped anew, ${ROUNDS} times: one activity and one transfer each`, async () => {
    const connection = new Connection(`${emu.url}/emulator/v1/chains/${SOLANA}/rpc`, "confirmed");
    const announcedOnly = await sendAnnouncements(emu, SOLANA);
    const answered: string[] = [];
    for (let round = 0; round < ROUNDS; round++) answered.push(await solRound(connection, "one stamp"), await solRound(connection, "stamped anew"));
    await announcedOnly(answered);
  }, 120_000);

  it("execute_swap: copies of one execution are one activity and one swap on the pool", async () => {
    const client = sdkClient(emu);
    const chain = evm(BASE_SEPOLIA);
    // docs/networks.md: the local DeFi set's addresses on every local chain.
    const TUSD = "0x5F23465BAFf78DC25B29B23D69A5284e8160429D";
    const WETH = "0x136E2680e3D1b7Bb12239A17843c7388ddF31ff4";
    const POOL = "0x420194F9C6B85d8bF0086F972b6763B7788954bF";
    const tusd = `${BASE_SEPOLIA}/erc20:${TUSD.toLowerCase()}`;
    const weth = `${BASE_SEPOLIA}/erc20:${WETH.toLowerCase()}`;
    const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);
    const balanceOf = (token: Hex, who: Hex = FROM) => chain.readContract({ address: token, abi: erc20, functionName: "balanceOf", args: [who] });
    for (const stamping of ["one stamp", "stamped anew"] as const) {
      const amountIn = 100n * 10n ** 6n;
      const { quotes } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: amountIn.toString() });
      const q = quotes[0]!;
      const body = submitBody(emu, "ACTIVITY_TYPE_EXECUTE_SWAP_V2", { quoteId: q.quoteId, inputToken: tusd, outputToken: weth, inputAmount: amountIn.toString(), quotedOutputAmount: q.outputAmount, minOutputAmount: q.minOutputAmount, sponsor: false });
      const [tusdBefore, wethBefore, poolBefore] = await Promise.all([balanceOf(TUSD), balanceOf(WETH), balanceOf(TUSD, POOL)]);

      const activity = theOneActivity(await burst(emu, "execute_swap", body, stamping));
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(await recorded(emu, "ACTIVITY_TYPE_EXECUTE_SWAP_V2", (i) => i.executeSwapIntentV2?.quoteId === q.quoteId)).toHaveLength(1);

      let status;
      for (let i = 0; i < 200 && (status = await client.getSwapStatus({ swapRequestId: activity.result.executeSwapResult.swapRequestId })).status === "PENDING"; i++) await new Promise((r) => setTimeout(r, 25));
      expect(status!.status).toBe("COMPLETED");
      expect((await chain.getTransactionReceipt({ hash: status!.originTxHash as Hex })).from.toLowerCase()).toBe(FROM.toLowerCase());
      // One swap: the pool took the input once, the account paid it once and received the quoted output once.
      expect((await balanceOf(TUSD, POOL)) - poolBefore).toBe(amountIn);
      expect(tusdBefore - (await balanceOf(TUSD))).toBe(amountIn);
      expect((await balanceOf(WETH)) - wethBefore).toBe(BigInt(q.outputAmount));
    }
  }, 60_000);

  it("sponsored eth_send_transaction of two calls (a gas-station batch): copies are one batch, the calls paid once", async () => {
    const caip2 = "eip155:8453";
    const chain = evm(caip2);
    const client = sdkClient(emu);
    for (const stamping of ["one stamp", "stamped anew"] as const) {
      const [a, b] = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address];
      const body = submitBody(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", { from: FROM, caip2, sponsor: true, calls: [{ to: a, value: "1000" }, { to: b, value: "2000" }] });
      const before = await chain.getBalance({ address: FROM });
      const batchNonce = BigInt((await client.getNonces({ address: FROM, caip2, gasStationNonce: true })).gasStationNonce!);

      const activity = theOneActivity(await burst(emu, "eth_send_transaction", body, stamping));
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(await recorded(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", (i) => i.ethSendTransactionIntentV2?.calls?.[0]?.to === a)).toHaveLength(1);
      expect((await pollSendStatus(emu, activity.result.ethSendTransactionResultV2.sendTransactionStatusId)).txStatus).toBe("INCLUDED");
      expect([await chain.getBalance({ address: a }), await chain.getBalance({ address: b })]).toEqual([1000n, 2000n]);
      // The paymaster pays the gas: the account moves by the calls' values, once.
      expect(await chain.getBalance({ address: FROM })).toBe(before - 3000n);
      expect(BigInt((await client.getNonces({ address: FROM, caip2, gasStationNonce: true })).gasStationNonce!)).toBe(batchNonce + 1n);
    }
  }, 60_000);

  it("copies of a send the chain refuses all get its one error; nothing is recorded or sent", async () => {
    const chain = evm(SEPOLIA);
    const body = submitBody(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", { from: FROM, caip2: SEPOLIA, calls: [{ to: FROM, value: (10n ** 30n).toString() }] });
    const nonceBefore = await chain.getTransactionCount({ address: FROM, blockTag: "pending" });
    const answers = await burst(emu, "eth_send_transaction", body, "stamped anew");
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(400);
    expect(JSON.stringify(answers[0]!.json)).toContain("insufficient funds");
    expect(await recorded(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", (i) => i.ethSendTransactionIntentV2?.calls?.[0]?.value === (10n ** 30n).toString())).toHaveLength(0);
    expect(await chain.getTransactionCount({ address: FROM, blockTag: "pending" })).toBe(nonceBefore);
  });

  it("two different sends with the same nonce are two submissions: the chain takes one and refuses the other with Nonce too low", async () => {
    const chain = evm(SEPOLIA);
    const nonce = await chain.getTransactionCount({ address: FROM, blockTag: "pending" });
    const [a, b] = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address];
    const bodies = [a, b].map((to) => submitBody(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", { from: FROM, caip2: SEPOLIA, nonce: String(nonce), calls: [{ to, value: "1000" }] }));
    const answers = await Promise.all(
      bodies.map(async (body) => {
        const s = await stampBody(body, devKey(emu));
        const res = await fetch(`${emu.url}/public/v1/submit/eth_send_transaction`, { method: "POST", headers: { "content-type": "application/json", [s.stampHeaderName]: s.stampHeaderValue }, body });
        return { status: res.status, json: await readJson(res) };
      }),
    );
    expect(answers.map((x) => x.status).sort()).toEqual([200, 400]);
    const refused = answers.find((x) => x.status === 400)!.json;
    expect(refused.message.toLowerCase()).toContain("nonce too low");
    expect(JSON.stringify(refused.details)).toContain("parameters.nonce");
    expect(await chain.getTransactionCount({ address: FROM, blockTag: "pending" })).toBe(nonce + 1);
    const paid = await Promise.all([a, b].map((address) => chain.getBalance({ address })));
    expect(paid.sort()).toEqual([0n, 1000n]);
  });
});

describe("approvals that complete a send run it once (2-of-3 root quorum)", () => {
  const emu = useTestEmulator();
  const chain = () => createPublicClient({ transport: http(`${emu.info.baseUrl}/emulator/v1/chains/${SEPOLIA}/rpc`) });
  const users: { id: string; key: KeyPair }[] = [];

  it("sets up a 2-of-3 root quorum", async () => {
    users.push(await createApiKeyUser(emu, "root-2"), await createApiKeyUser(emu, "root-3"));
    await sdkClient(emu).updateRootQuorum({ threshold: 2, userIds: [emu.info.rootUserId!, ...users.map((u) => u.id)] });
  });

  /** A send proposed by the fixture's root user, waiting for a second approval; its recipient. */
  async function proposeSend(): Promise<{ fingerprint: string; id: string; to: Hex; body: string }> {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const body = submitBody(emu, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", { from: FROM, caip2: SEPOLIA, calls: [{ to, value: "1000" }] });
    const s = await stampBody(body, devKey(emu));
    const proposed = await readJson(await fetch(`${emu.url}/public/v1/submit/eth_send_transaction`, { method: "POST", headers: { "content-type": "application/json", [s.stampHeaderName]: s.stampHeaderValue }, body }));
    expect(proposed.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    return { fingerprint: proposed.activity.fingerprint, id: proposed.activity.id, to, body };
  }

  /** After the approvals: the activity COMPLETED, the recipient paid once and the sender's nonce moved by one. */
  async function sentOnce(p: { id: string; to: Hex }, nonceBefore: number): Promise<void> {
    const { activity } = await sdkClient(emu).getActivity({ activityId: p.id });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await pollSendStatus(emu, (activity.result as any).ethSendTransactionResultV2.sendTransactionStatusId)).txStatus).toBe("INCLUDED");
    expect(await chain().getBalance({ address: p.to })).toBe(1000n);
    expect(await chain().getTransactionCount({ address: FROM, blockTag: "pending" })).toBe(nonceBefore + 1);
  }

  it(`${COPIES} copies of one approve_activity body, one stamp or stamped anew: one transaction, every answer the completed activity`, async () => {
    for (const stamping of ["one stamp", "stamped anew"] as const) {
      const p = await proposeSend();
      const nonceBefore = await chain().getTransactionCount({ address: FROM, blockTag: "pending" });
      const approve = JSON.stringify({ type: "ACTIVITY_TYPE_APPROVE_ACTIVITY", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { fingerprint: p.fingerprint } });
      const answers = await burst(emu, "approve_activity", approve, stamping, users[0]!.key);
      const activity = theOneActivity(answers);
      expect(activity.id).toBe(p.id);
      for (const a of answers) expect(a.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      await sentOnce(p, nonceBefore);
    }
  }, 60_000);

  it(`${COPIES} copies of the proposal's body from another root user (each an approval): one transaction`, async () => {
    const p = await proposeSend();
    const nonceBefore = await chain().getTransactionCount({ address: FROM, blockTag: "pending" });
    const answers = await burst(emu, "eth_send_transaction", p.body, "stamped anew", users[1]!.key);
    expect(theOneActivity(answers).id).toBe(p.id);
    await sentOnce(p, nonceBefore);
  }, 60_000);

  it("two root users approving at once: one completes the send, the other is told it no longer awaits consensus", async () => {
    const p = await proposeSend();
    const nonceBefore = await chain().getTransactionCount({ address: FROM, blockTag: "pending" });
    const results = await Promise.allSettled(users.map((u) => sdkClient(emu, u.key).approveActivity({ fingerprint: p.fingerprint })));
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    expect(fulfilled).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason.message)).toContain("is not awaiting consensus");
    await sentOnce(p, nonceBefore);
  }, 60_000);
});
