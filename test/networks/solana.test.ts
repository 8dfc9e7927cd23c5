/**
 * The embedded Solana clusters, seen through @solana/web3.js's Connection (and
 * @solana/spl-token) on the emulator's JSON-RPC URL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  sendAndConfirmTransaction,
} from "@solana/web3.js";
import { createMint, getAccount, getAssociatedTokenAddressSync, getOrCreateAssociatedTokenAccount, mintTo } from "@solana/spl-token";
import { useTestEmulator } from "../use-test-emulator.js";

// The default fixture's Solana account: `test test ... junk` at m/44'/501'/0'/0' (what Phantom and
// Solflare derive for that mnemonic).
const FIXTURE_SOLANA = "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96";
const MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

const emu = useTestEmulator();
let connection: Connection;
beforeAll(async () => {
  // web3.js would guess the websocket at port+1 (solana-test-validator's layout); here it shares the RPC path.
  const rpcUrl = `${emu.url}/emulator/v1/chains/solana:mainnet/rpc`;
  connection = new Connection(rpcUrl, { commitment: "confirmed", wsEndpoint: rpcUrl.replace(/^http/, "ws") });
});

async function control(caip2: string, action: string, body: unknown) {
  const r = await fetch(`${emu.url}/emulator/v1/chains/${caip2}/${action}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as any };
}

async function fundedKeypair(sol = 10): Promise<Keypair> {
  const k = Keypair.generate();
  const r = await control(MAINNET, "fund", { address: k.publicKey.toBase58(), amount: String(sol * LAMPORTS_PER_SOL) });
  expect(r.status).toBe(200);
  return k;
}

async function confirm(signature: string) {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const r = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
  expect(r.value.err).toBeNull();
}

describe("local Solana clusters over JSON-RPC", () => {
  it("pre-funds the fixture Solana account with 1,000 SOL and reports the cluster's genesis hash", async () => {
    expect(await connection.getBalance(new PublicKey(FIXTURE_SOLANA))).toBe(1000 * LAMPORTS_PER_SOL);
    expect(await connection.getGenesisHash()).toBe("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d");
    const devnet = new Connection(`${emu.url}/emulator/v1/chains/solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/rpc`, "confirmed");
    expect(await devnet.getGenesisHash()).toBe("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG");
  });

  it("confirms a legacy SystemProgram transfer; balances and the recorded fee agree", async () => {
    const from = await fundedKeypair();
    const to = Keypair.generate().publicKey;
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 0.25 * LAMPORTS_PER_SOL }));
    const signature = await sendAndConfirmTransaction(connection, tx, [from]);
    expect(await connection.getBalance(to)).toBe(0.25 * LAMPORTS_PER_SOL);
    const got = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(got?.meta?.err).toBeNull();
    expect(got?.meta?.fee).toBe(5000);
    expect(await connection.getBalance(from.publicKey)).toBe(10 * LAMPORTS_PER_SOL - 0.25 * LAMPORTS_PER_SOL - 5000);
    expect(got!.meta!.preBalances[0]! - got!.meta!.postBalances[0]!).toBe(0.25 * LAMPORTS_PER_SOL + 5000);
    expect(got?.transaction.signatures[0]).toBe(signature);
  });

  it("confirms a v0 transaction with a separate fee payer", async () => {
    const from = await fundedKeypair();
    const payer = await fundedKeypair(1);
    const to = Keypair.generate().publicKey;
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 1_000_000 })] }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer, from]);
    const signature = await connection.sendTransaction(tx);
    expect((await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight })).value.err).toBeNull();
    expect(await connection.getBalance(to)).toBe(1_000_000);
    expect(await connection.getBalance(from.publicKey)).toBe(10 * LAMPORTS_PER_SOL - 1_000_000);
    expect(await connection.getBalance(payer.publicKey)).toBe(LAMPORTS_PER_SOL - 10_000); // two signatures
    const got = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(got?.version).toBe(0);
    await expect(connection.getTransaction(signature)).rejects.toThrow(/maxSupportedTransactionVersion/);
  });

  it("refuses a transfer beyond the balance at preflight, with the program's error and logs", async () => {
    const from = await fundedKeypair(1);
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5 * LAMPORTS_PER_SOL }));
    const err = await sendAndConfirmTransaction(connection, tx, [from]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SendTransactionError);
    expect((err as Error).message).toMatch(/custom program error: 0x1/);
    expect(await connection.getBalance(from.publicKey)).toBe(LAMPORTS_PER_SOL);
  });

  it("lands a failing transaction sent with skipPreflight: fee charged, error in its status", async () => {
    const from = await fundedKeypair(1);
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5 * LAMPORTS_PER_SOL }));
    tx.sign(from);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const status = (await connection.getSignatureStatuses([signature])).value[0];
    expect(status?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(await connection.getBalance(from.publicKey)).toBe(LAMPORTS_PER_SOL - 5000);
    const chain = await emu.runtime.families.chains.networks.solana(MAINNET);
    expect(await chain.getTransactionStatus(signature)).toMatchObject({ status: "failed", fee: 5000n, error: { solanaError: { InstructionError: [0, { Custom: 1 }] } } });
  });

  it("creates an SPL mint, mints to an associated token account, and funds tokens through /fund", async () => {
    const payer = await fundedKeypair();
    const owner = Keypair.generate().publicKey;
    const mint = await createMint(connection, payer, payer.publicKey, null, 6);
    const ata = await getOrCreateAssociatedTokenAccount(connection, payer, mint, owner);
    expect(ata.address.toBase58()).toBe(getAssociatedTokenAddressSync(mint, owner).toBase58());
    await mintTo(connection, payer, mint, ata.address, payer, 1_500_000n);
    expect((await getAccount(connection, ata.address)).amount).toBe(1_500_000n);
    expect((await connection.getTokenAccountBalance(ata.address)).value.uiAmountString).toBe("1.5");

    const r = await control(MAINNET, "fund", { address: owner.toBase58(), amount: "500000", asset: mint.toBase58() });
    expect(r.json.balance).toBe("2000000");
    expect((await getAccount(connection, ata.address)).amount).toBe(2_000_000n);
    // A holder without a token account gets one.
    const other = Keypair.generate().publicKey;
    await control(MAINNET, "fund", { address: other.toBase58(), amount: "7", asset: mint.toBase58() });
    expect((await getAccount(connection, getAssociatedTokenAddressSync(mint, other))).amount).toBe(7n);
    const byOwner = await connection.getTokenAccountsByOwner(other, { mint });
    expect(byOwner.value.map((v) => v.pubkey.toBase58())).toEqual([getAssociatedTokenAddressSync(mint, other).toBase58()]);
  });

  it("with automine off holds a transaction until /mine", async () => {
    const from = await fundedKeypair();
    const to = Keypair.generate().publicKey;
    expect((await control(MAINNET, "automine", { enabled: false })).json.automine).toBe(false);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 42_000_000 }));
    tx.sign(from);
    const signature = await connection.sendRawTransaction(tx.serialize());
    expect((await connection.getSignatureStatuses([signature])).value[0]).toBeNull();
    expect(await connection.getBalance(to)).toBe(0);
    expect(await (await emu.runtime.families.chains.networks.solana(MAINNET)).getTransactionStatus(signature)).toEqual({ status: "pending", hash: signature });
    const slotBefore = await connection.getSlot();

    expect((await control(MAINNET, "mine", {})).status).toBe(200);
    expect((await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight })).value.err).toBeNull();
    expect(await connection.getBalance(to)).toBe(42_000_000);
    expect((await connection.getSignatureStatuses([signature])).value[0]?.slot).toBeGreaterThanOrEqual(slotBefore);
    expect(await connection.getSlot()).toBeGreaterThan(slotBefore);
    await control(MAINNET, "automine", { enabled: true });
  });

  it("answers requestAirdrop with a signature that confirms", async () => {
    const k = Keypair.generate();
    const signature = await connection.requestAirdrop(k.publicKey, 2 * LAMPORTS_PER_SOL);
    await confirm(signature);
    expect(await connection.getBalance(k.publicKey)).toBe(2 * LAMPORTS_PER_SOL);
  });

  it("rejects bad control input (Solana address) with an rpcStatus naming the field", async () => {
    const r = await control(MAINNET, "fund", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", amount: "1" });
    expect(r.status).toBe(400);
    expect(r.json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0].field).toBe("address");
  });
});
