/**
 * sol_send_transaction through @turnkey/sdk-server (V2 `signWiths`) and @turnkey/http's
 * original intent, checked against @solana/web3.js's Connection on the cluster's own JSON-RPC
 * URL: balances, fees, the fee payer of sponsored sends, and preflight refusals recorded FAILED.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { SOLANA_FEE_PAYER_ADDRESS } from "../emulator/families/chains/sponsor-keys.js";
import { sdkClient, pollSendStatus } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

// The default fixture's Solana account (`test test ... junk` at m/44'/501'/0'/0'), what Phantom derives.
const FIXTURE_SOLANA = new PublicKey("oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96");
const MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const ZERO_BLOCKHASH = "11111111111111111111111111111111";

const emu = useTestEmulator();
let connection: Connection;
beforeAll(async () => {
  const rpcUrl = `${emu.url}/emulator/v1/chains/${MAINNET}/rpc`;
  connection = new Connection(rpcUrl, { commitment: "confirmed", wsEndpoint: rpcUrl.replace(/^http/, "ws") });
});

const pollStatus = (id: string) => pollSendStatus(emu, id);

function legacyTransfer(from: PublicKey, to: PublicKey, lamports: number, blockhash: string): string {
  const tx = new Transaction({ feePayer: from, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports }));
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString("hex");
}

function v0Transfer(from: PublicKey, to: PublicKey, lamports: number, blockhash: string): string {
  const message = new TransactionMessage({ payerKey: from, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports })] }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(message).serialize()).toString("hex");
}

describe("sol_send_transaction", () => {
  for (const [name, build] of [
    ["legacy", legacyTransfer],
    ["v0", v0Transfer],
  ] as const) {
    it(`signs and submits a ${name} transfer from the fixture account; INCLUDED; Connection.getBalance agrees`, async () => {
      const to = Keypair.generate().publicKey;
      const before = await connection.getBalance(FIXTURE_SOLANA);
      const { blockhash } = await connection.getLatestBlockhash();
      const sent = await sdkClient(emu).solSendTransaction({ unsignedTransaction: build(FIXTURE_SOLANA, to, 0.5 * LAMPORTS_PER_SOL, blockhash), signWiths: [FIXTURE_SOLANA.toBase58()], caip2: MAINNET });
      const status = await pollStatus(sent.sendTransactionStatusId);
      expect(status.txStatus).toBe("INCLUDED");
      const signature = status.solana!.signature!;
      const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
      expect(tx?.meta?.err).toBeNull();
      expect(tx?.transaction.message.staticAccountKeys[0]!.toBase58()).toBe(FIXTURE_SOLANA.toBase58());
      expect(await connection.getBalance(to)).toBe(0.5 * LAMPORTS_PER_SOL);
      expect(await connection.getBalance(FIXTURE_SOLANA)).toBe(before - 0.5 * LAMPORTS_PER_SOL - tx!.meta!.fee);
      const balances = await sdkClient(emu).getWalletAddressBalances({ address: to.toBase58(), caip2: MAINNET });
      expect(balances.balances?.[0]).toMatchObject({ symbol: "SOL", decimals: 9, balance: String(0.5 * LAMPORTS_PER_SOL) });
    });
  }

  it("sponsored: the gas station's fee payer pays the fee and a fresh blockhash replaces the placeholder", async () => {
    const to = Keypair.generate().publicKey;
    const before = await connection.getBalance(FIXTURE_SOLANA);
    const sent = await sdkClient(emu).solSendTransaction({ unsignedTransaction: v0Transfer(FIXTURE_SOLANA, to, LAMPORTS_PER_SOL, ZERO_BLOCKHASH), signWiths: [FIXTURE_SOLANA.toBase58()], caip2: "solana:mainnet", sponsor: true });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const tx = await connection.getTransaction(status.solana!.signature!, { maxSupportedTransactionVersion: 0 });
    const keys = tx!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys[0]).toBe(SOLANA_FEE_PAYER_ADDRESS);
    expect(keys[1]).toBe(FIXTURE_SOLANA.toBase58());
    expect(tx!.meta!.fee).toBeGreaterThan(0);
    // The sender paid exactly the transfer; the fee came from the fee payer.
    expect(await connection.getBalance(FIXTURE_SOLANA)).toBe(before - LAMPORTS_PER_SOL);
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL);
  });

  it("the original intent (signWith) through @turnkey/http is accepted", async () => {
    const { httpClient } = await import("./support.js");
    const to = Keypair.generate().publicKey;
    const { blockhash } = await connection.getLatestBlockhash();
    const r = await httpClient(emu).solSendTransaction({
      type: "ACTIVITY_TYPE_SOL_SEND_TRANSACTION",
      timestampMs: String(Date.now()),
      organizationId: emu.info.organizationId,
      parameters: { unsignedTransaction: legacyTransfer(FIXTURE_SOLANA, to, 0.01 * LAMPORTS_PER_SOL, blockhash), signWith: FIXTURE_SOLANA.toBase58(), caip2: MAINNET },
    } as never);
    const id = (r.activity.result as { solSendTransactionResult?: { sendTransactionStatusId: string } }).solSendTransactionResult!.sendTransactionStatusId;
    expect((await pollStatus(id)).txStatus).toBe("INCLUDED");
    expect(await connection.getBalance(to)).toBe(0.01 * LAMPORTS_PER_SOL);
  });

  it("a transfer the cluster refuses in preflight is recorded FAILED with the simulation's error", async () => {
    const to = Keypair.generate().publicKey;
    const { blockhash } = await connection.getLatestBlockhash();
    const sent = await sdkClient(emu).solSendTransaction({ unsignedTransaction: legacyTransfer(FIXTURE_SOLANA, to, 10_000 * LAMPORTS_PER_SOL, blockhash), signWiths: [FIXTURE_SOLANA.toBase58()], caip2: MAINNET });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("FAILED");
    expect(status.error?.solana?.source).toBe("preflight");
    expect(JSON.parse(status.error!.solana!.transactionErrorJson!)).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(status.error?.solana?.logs?.join("\n")).toContain("insufficient lamports");
    expect(await connection.getBalance(to)).toBe(0);
  });

  it("bad input names the field and submits nothing", async () => {
    const client = sdkClient(emu);
    const to = Keypair.generate().publicKey;
    const { blockhash } = await connection.getLatestBlockhash();
    const good = legacyTransfer(FIXTURE_SOLANA, to, 1000, blockhash);
    const cases: [Record<string, unknown>, string][] = [
      [{ unsignedTransaction: "zz", signWiths: [FIXTURE_SOLANA.toBase58()], caip2: MAINNET }, "parameters.unsignedTransaction"],
      [{ unsignedTransaction: good, signWiths: [], caip2: MAINNET }, "parameters.signWiths"],
      [{ unsignedTransaction: good, signWiths: [Keypair.generate().publicKey.toBase58()], caip2: MAINNET }, "parameters.signWiths[0]"],
      [{ unsignedTransaction: good, signWiths: ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"], caip2: MAINNET }, "parameters.signWiths[0]"],
      [{ unsignedTransaction: legacyTransfer(FIXTURE_SOLANA, to, 1000, ZERO_BLOCKHASH), signWiths: [FIXTURE_SOLANA.toBase58()], caip2: MAINNET }, "parameters.recentBlockhash"],
      [{ unsignedTransaction: good, signWiths: [FIXTURE_SOLANA.toBase58()], caip2: MAINNET, recentBlockhash: "abc" }, "parameters.recentBlockhash"],
    ];
    for (const [params, field] of cases) {
      const err = await client.solSendTransaction(params as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, field).toBeDefined();
      expect(JSON.stringify(err), field).toContain(field);
    }
    expect(await connection.getBalance(to)).toBe(0);
  });
});
