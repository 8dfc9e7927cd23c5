/**
 * Balance webhooks for Solana and SPL tokens on the local cluster: a receiver on 127.0.0.1
 * subscribed through @turnkey/sdk-server (filters naming the cluster by alias and by full genesis
 * hash) hears the deposits and withdrawals of a wallet account; every amount is checked against
 * the balances @solana/web3.js and @solana/spl-token read from the cluster's JSON-RPC, every
 * delivery with @turnkey/crypto's verifier.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, sendAndConfirmTransaction, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { createAssociatedTokenAccountIdempotentInstruction, createMint, createTransferCheckedInstruction, getAccount, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { pollSendStatus, sdkClient } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { Receiver } from "./receiver.js";
import { verifyReceived } from "./support.js";

// The default fixture's Solana wallet account (`test test ... junk` at m/44'/501'/0'/0').
const FIXTURE_SOLANA = new PublicKey("oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96");
const MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const DECIMALS = 6;

const emu = useTestEmulator();
let receiver: Receiver;
let connection: Connection;
beforeAll(async () => {
  receiver = await Receiver.start();
  const rpcUrl = `${emu.url}/emulator/v1/chains/${MAINNET}/rpc`;
  connection = new Connection(rpcUrl, { commitment: "confirmed", wsEndpoint: rpcUrl.replace(/^http/, "ws") });
});
afterAll(() => receiver?.stop());

async function fund(address: PublicKey, amount: bigint, mint?: PublicKey): Promise<void> {
  const res = await fetch(`${emu.url}/emulator/v1/chains/${MAINNET}/fund`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ address: address.toBase58(), amount: amount.toString(), ...(mint ? { asset: mint.toBase58() } : {}) }),
  });
  expect(res.status).toBe(200);
}

const tokenBalance = async (owner: PublicKey, mint: PublicKey) => (await getAccount(connection, getAssociatedTokenAddressSync(mint, owner))).amount;

/** The balance events the receiver got for one transaction, by "<type>|<operation>|<SOL or mint>". */
function eventsOf(txHash: string): Map<string, any> {
  const out = new Map<string, any>();
  for (const r of receiver.received.filter((x) => x.json?.msg?.txHash === txHash)) {
    const asset = r.json.msg.asset.symbol === "SOL" ? "SOL" : r.json.msg.asset.caip19.split("/token:")[1];
    out.set(`${r.json.type}|${r.json.msg.operation}|${asset}`, r);
  }
  return out;
}

describe("Solana and SPL balance webhooks", () => {
  it("a wallet account's SOL and SPL deposits and withdrawals reach the endpoint, amounts as web3.js reads them", async () => {
    const client = sdkClient(emu);
    await client.createWebhookEndpoint({
      url: receiver.url,
      name: "solana balances",
      subscriptions: [
        { eventType: "BALANCE_CONFIRMED_UPDATES", filtersJson: JSON.stringify({ caip2: "solana:mainnet" }) },
        { eventType: "BALANCE_FINALIZED_UPDATES", filtersJson: JSON.stringify({ caip2: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d", address: FIXTURE_SOLANA.toBase58() }) },
      ],
    });

    // An outside payer (not a wallet account: it raises no events) with SOL and a token of its own.
    const payer = Keypair.generate();
    await fund(payer.publicKey, 10n * BigInt(LAMPORTS_PER_SOL));
    const mint = await createMint(connection, payer, payer.publicKey, null, DECIMALS);
    await fund(payer.publicKey, 10_000_000n, mint);
    const to = Keypair.generate().publicKey;

    // Deposits: the payer sends SOL and tokens to the wallet account in one transaction (and pays for the token accounts).
    const solBefore = BigInt(await connection.getBalance(FIXTURE_SOLANA));
    const deposit = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, getAssociatedTokenAddressSync(mint, FIXTURE_SOLANA), FIXTURE_SOLANA, mint),
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, getAssociatedTokenAddressSync(mint, to), to, mint),
      createTransferCheckedInstruction(getAssociatedTokenAddressSync(mint, payer.publicKey), mint, getAssociatedTokenAddressSync(mint, FIXTURE_SOLANA), payer.publicKey, 7_000_000n, DECIMALS),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: FIXTURE_SOLANA, lamports: 2 * LAMPORTS_PER_SOL }),
    );
    const depositSig = await sendAndConfirmTransaction(connection, deposit, [payer]);
    const solDeposited = BigInt(await connection.getBalance(FIXTURE_SOLANA)) - solBefore;
    const tokensDeposited = await tokenBalance(FIXTURE_SOLANA, mint);

    // Withdrawals: the wallet account sends some of both with sol_send_transaction.
    const tokensBefore = await tokenBalance(FIXTURE_SOLANA, mint);
    const solBeforeSend = BigInt(await connection.getBalance(FIXTURE_SOLANA));
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: FIXTURE_SOLANA,
      recentBlockhash: blockhash,
      instructions: [
        createTransferCheckedInstruction(getAssociatedTokenAddressSync(mint, FIXTURE_SOLANA), mint, getAssociatedTokenAddressSync(mint, to), FIXTURE_SOLANA, 3_000_000n, DECIMALS),
        SystemProgram.transfer({ fromPubkey: FIXTURE_SOLANA, toPubkey: to, lamports: LAMPORTS_PER_SOL / 10 }),
      ],
    }).compileToV0Message();
    const sent = await client.solSendTransaction({ unsignedTransaction: Buffer.from(new VersionedTransaction(message).serialize()).toString("hex"), signWiths: [FIXTURE_SOLANA.toBase58()], caip2: MAINNET });
    const status = await pollSendStatus(emu, sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const withdrawSig = status.solana!.signature!;
    const withdrawTx = await connection.getTransaction(withdrawSig, { maxSupportedTransactionVersion: 0, commitment: "confirmed" });
    const solWithdrawn = solBeforeSend - BigInt(await connection.getBalance(FIXTURE_SOLANA)) - BigInt(withdrawTx!.meta!.fee);
    const tokensWithdrawn = tokensBefore - (await tokenBalance(FIXTURE_SOLANA, mint));

    const expected = (sig: string) => [`balances:confirmed`, `balances:finalized`].flatMap((type) => (sig === depositSig ? ["deposit"] : ["withdraw"]).flatMap((op) => [`${type}|${op}|SOL`, `${type}|${op}|${mint.toBase58()}`]));
    await vi.waitFor(
      () => {
        expect([...eventsOf(depositSig).keys()].sort()).toEqual(expected(depositSig).sort());
        expect([...eventsOf(withdrawSig).keys()].sort()).toEqual(expected(withdrawSig).sort());
      },
      { timeout: 10_000, interval: 50 },
    );
    // Only the wallet account's moves: nothing for the payer or the recipient.
    expect(receiver.received.every((r) => r.json.msg.address === FIXTURE_SOLANA.toBase58())).toBe(true);
    expect(receiver.received).toHaveLength(8);

    for (const [sig, amounts] of [
      [depositSig, { SOL: solDeposited, token: tokensDeposited }],
      [withdrawSig, { SOL: solWithdrawn, token: tokensWithdrawn }],
    ] as const) {
      const tx = await connection.getTransaction(sig, { maxSupportedTransactionVersion: 0, commitment: "confirmed" });
      for (const [key, r] of eventsOf(sig)) {
        const isSol = key.endsWith("|SOL");
        expect(r.json, key).toMatchObject({
          organizationId: emu.info.organizationId,
          msg: {
            caip2: MAINNET,
            txHash: sig,
            address: FIXTURE_SOLANA.toBase58(),
            asset: isSol ? { symbol: "SOL", decimals: 9, amount: amounts.SOL.toString() } : { caip19: `${MAINNET}/token:${mint.toBase58()}`, decimals: DECIMALS, amount: amounts.token.toString() },
            block: { number: tx!.slot },
          },
        });
        expect((await verifyReceived(emu, r)).ok, key).toBe(true);
      }
    }
    expect(solDeposited).toBe(2n * BigInt(LAMPORTS_PER_SOL));
    expect(tokensWithdrawn).toBe(3_000_000n);
  });
});
