/**
 * Chain context builders checked against independent libraries: transactions are built
 * with viem, @solana/web3.js + @solana/spl-token and tronweb, and the decoded fields
 * must match what those libraries put in.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, parseAbi, serializeTransaction } from "viem";
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { createTransferCheckedInstruction, createTransferInstruction, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { utils as tronUtils } from "tronweb";
import { TurnkeyError } from "../core/errors.js";
import { buildEthTxContext, buildEip712Context } from "./context-eth.js";
import { buildSolanaTxContext, LOOKUP_PLACEHOLDER } from "./context-solana.js";
import { buildTronTxContext } from "./context-tron.js";

const seeded = (n: number) => Keypair.fromSeed(new Uint8Array(32).fill(n)).publicKey;
const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("eth.tx", () => {
  const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);
  const to = "0x6B175474E89094C44Da98b954EedeAC495271d0F" as const;
  const recipient = "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B" as const;

  it("round-trips an EIP-1559 transaction built with viem", () => {
    const data = encodeFunctionData({ abi: erc20, functionName: "transfer", args: [recipient, 123456789012345678901234n] });
    const hex = serializeTransaction({
      type: "eip1559",
      chainId: 11155111,
      nonce: 7,
      to,
      value: 10n ** 18n + 1n,
      data,
      gas: 21000n,
      maxFeePerGas: 30_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
    const tx = buildEthTxContext(hex, { from: "0xDEADbeef00000000000000000000000000000001", abi: erc20 });
    expect(tx).toMatchObject({
      type: "TYPE_2",
      from: "0xdeadbeef00000000000000000000000000000001",
      to: to.toLowerCase(),
      value: 10n ** 18n + 1n,
      data: data.toLowerCase(),
      chain_id: 11155111n,
      nonce: 7n,
      gas: 21000n,
      max_fee_per_gas: 30_000_000_000n,
      gas_price: 30_000_000_000n,
      max_priority_fee_per_gas: 1_000_000_000n,
      function_name: "transfer",
      function_signature: "transfer(address,uint256)",
      contract_call_args: { to: recipient.toLowerCase(), amount: 123456789012345678901234n },
    });
    // Without an ABI, no decoded call.
    expect(buildEthTxContext(hex.slice(2))).not.toHaveProperty("function_name");
  });

  it("reads legacy and EIP-2930 transactions", () => {
    const legacy = buildEthTxContext(serializeTransaction({ type: "legacy", chainId: 1, nonce: 0, to, value: 5n, gasPrice: 9n, gas: 100n }));
    expect(legacy).toMatchObject({ type: "LEGACY", chain_id: 1n, gas_price: 9n, value: 5n, data: "0x", nonce: 0n });
    expect(legacy).not.toHaveProperty("max_fee_per_gas");
    const t1 = buildEthTxContext(serializeTransaction({ type: "eip2930", chainId: 10, nonce: 1, to, gasPrice: 2n, gas: 3n, accessList: [] }));
    expect(t1).toMatchObject({ type: "TYPE_1", chain_id: 10n, gas_price: 2n });
  });

  it("exposes tuple arguments positionally", () => {
    const abi = parseAbi(["struct Call { address target; bytes callData; }", "function aggregate(Call[] calls)"]);
    const data = encodeFunctionData({ abi, functionName: "aggregate", args: [[{ target: recipient, callData: "0xABCD" }]] });
    const tx = buildEthTxContext(serializeTransaction({ type: "eip1559", chainId: 1, to, data, maxFeePerGas: 1n }), { abi });
    expect(tx.contract_call_args).toEqual({ calls: [[recipient.toLowerCase(), "0xabcd"]] });
    expect(tx.function_signature).toBe("aggregate((address,bytes)[])");
  });

  it("rejects garbage with a 400", () => {
    expect(() => buildEthTxContext("0x02zz")).toThrow(TurnkeyError);
  });
});

describe("eth.eip_712", () => {
  it("types message values from the typed-data schema", () => {
    const ctx = buildEip712Context(
      JSON.stringify({
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
          TokenPermissions: [
            { name: "token", type: "address" },
            { name: "amount", type: "uint256" },
          ],
          PermitBatch: [
            { name: "permitted", type: "TokenPermissions[]" },
            { name: "nonce", type: "uint256" },
          ],
        },
        primaryType: "PermitBatch",
        domain: { name: "Permit2", chainId: 1, verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3" },
        message: { permitted: [{ token: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", amount: "1000000" }], nonce: 0 },
      }),
    );
    expect(ctx).toEqual({
      primary_type: "PermitBatch",
      domain: { name: "Permit2", chain_id: 1n, verifying_contract: "0x000000000022d473030f116ddee9f6b43ac78ba3" },
      message: { permitted: [{ token: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", amount: 1_000_000n }], nonce: 0n },
    });
    expect(() => buildEip712Context("{not json")).toThrow(TurnkeyError);
  });
});

describe("solana.tx", () => {
  const payer = seeded(1);
  const dest = seeded(2);
  const blockhash = seeded(3).toBase58();

  it("decodes a legacy System Program transfer built with @solana/web3.js", () => {
    const tx = new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: dest, lamports: 5_000_000_000n }),
    );
    const hex = toHex(tx.serialize({ requireAllSignatures: false, verifySignatures: false }));
    const ctx = buildSolanaTxContext(hex);
    expect(ctx.transfers).toEqual([{ from: payer.toBase58(), to: dest.toBase58(), amount: 5_000_000_000n }]);
    expect(ctx.program_keys).toEqual([SystemProgram.programId.toBase58()]);
    expect(ctx.recent_blockhash).toBe(blockhash);
    expect(ctx.account_keys).toEqual(tx.compileMessage().accountKeys.map((k) => k.toBase58()));
    const [ix] = ctx.instructions as Record<string, unknown>[];
    expect(ix).toMatchObject({
      program_key: SystemProgram.programId.toBase58(),
      instruction_data_hex: toHex(tx.instructions[0]!.data),
      accounts: [
        { account_key: payer.toBase58(), signer: true, writable: true },
        { account_key: dest.toBase58(), signer: false, writable: true },
      ],
    });
    // A bare message decodes the same way.
    expect(buildSolanaTxContext(toHex(tx.serializeMessage()))).toEqual(ctx);
  });

  it("decodes SPL transfers and v0 lookup-table accounts", () => {
    const owner = seeded(4);
    const source = seeded(5);
    const mint = seeded(6);
    const tableKey = seeded(7);
    const lookedUp = seeded(8);
    const table = new AddressLookupTableAccount({
      key: tableKey,
      state: { deactivationSlot: BigInt("18446744073709551615"), lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, authority: undefined, addresses: [seeded(9), lookedUp] },
    });
    const message = new TransactionMessage({
      payerKey: owner,
      recentBlockhash: blockhash,
      instructions: [
        createTransferInstruction(source, lookedUp, owner, 42n),
        createTransferCheckedInstruction(source, mint, dest, owner, 1_000_000n, 6, [], TOKEN_2022_PROGRAM_ID),
      ],
    }).compileToV0Message([table]);
    const hex = toHex(new VersionedTransaction(message).serialize());
    const ctx = buildSolanaTxContext(hex);
    expect(ctx.spl_transfers).toEqual([
      { from: source.toBase58(), to: LOOKUP_PLACEHOLDER, owner: owner.toBase58(), signers: [], amount: 42n },
      { from: source.toBase58(), token_mint: mint.toBase58(), to: dest.toBase58(), owner: owner.toBase58(), signers: [], amount: 1_000_000n },
    ]);
    expect(ctx.address_table_lookups).toEqual(
      message.addressTableLookups.map((l) => ({
        address_table_key: l.accountKey.toBase58(),
        writable_indexes: l.writableIndexes.map(BigInt),
        readonly_indexes: l.readonlyIndexes.map(BigInt),
      })),
    );
    expect(ctx.address_table_lookups).toEqual([{ address_table_key: tableKey.toBase58(), writable_indexes: [1n], readonly_indexes: [] }]);
    expect(ctx.transfers).toEqual([]);
    expect((ctx.instructions as unknown[]).length).toBe(2);
  });

  it("rejects malformed bytes with a 400", () => {
    expect(() => buildSolanaTxContext("01ff")).toThrow(TurnkeyError);
    expect(() => buildSolanaTxContext("zz")).toThrow(TurnkeyError);
  });

  it("rejects program ids loaded from lookup tables", () => {
    const program = new PublicKey(seeded(10));
    const table = new AddressLookupTableAccount({
      key: seeded(11),
      state: { deactivationSlot: 0n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [program] },
    });
    const message = new TransactionMessage({
      payerKey: payer,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer, toPubkey: dest, lamports: 1 })],
    }).compileToV0Message([table]);
    // Point the instruction's program at the lookup-table account (index = static key count).
    message.compiledInstructions[0]!.programIdIndex = message.staticAccountKeys.length;
    message.addressTableLookups.push({ accountKey: seeded(11), writableIndexes: [], readonlyIndexes: [0] });
    expect(() => buildSolanaTxContext(toHex(message.serialize()))).toThrow(/lookup tables are not supported/);
  });
});

describe("tron.tx", () => {
  const owner = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
  const base = { ref_block_bytes: "0d4e", ref_block_hash: "a1b2c3d4e5f60718", expiration: 1700000060000, timestamp: 1700000000000 };
  const rawHex = (contract: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    tronUtils.transaction.txPbToRawDataHex(tronUtils.transaction.txJsonToPb({ raw_data: { contract: [contract], ...base, ...extra } } as never)) as string;

  it("decodes a TransferContract serialized by tronweb", () => {
    const to = "41e9d79cc47518930bc322d9bf7cddd260a0260a8d";
    const hex = rawHex(
      { type: "TransferContract", parameter: { type_url: "type.googleapis.com/protocol.TransferContract", value: { owner_address: tronUtils.address.toHex(owner), to_address: to, amount: 1234567 } } },
      { data: "68656c6c6f" },
    );
    const ctx = buildTronTxContext(hex);
    expect(ctx).toMatchObject({ ref_block_bytes: "0d4e", ref_block_hash: "a1b2c3d4e5f60718", expiration: 1700000060000n, timestamp: 1700000000000n, data: "68656c6c6f" });
    expect(ctx.contract).toEqual([
      { type: "TransferContract", permission_id: 0n, owner_address: owner, to_address: tronUtils.address.fromHex(to), amount: 1234567n },
    ]);
  });

  it("decodes a TriggerSmartContract", () => {
    const data = "a9059cbb0000000000000000000000000000000000000000000000000000000000000001";
    const contract = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
    const hex = rawHex(
      { type: "TriggerSmartContract", parameter: { type_url: "type.googleapis.com/protocol.TriggerSmartContract", value: { owner_address: tronUtils.address.toHex(owner), contract_address: contract, data, call_value: 5 } } },
      { fee_limit: 100000000 },
    );
    const ctx = buildTronTxContext(hex);
    expect(ctx.fee_limit).toBe(100000000n);
    expect((ctx.contract as unknown[])[0]).toMatchObject({ type: "TriggerSmartContract", contract_address: tronUtils.address.fromHex(contract), data, call_value: 5n });
  });

  it("rejects malformed protobuf with a 400", () => {
    expect(() => buildTronTxContext("0aff")).toThrow(TurnkeyError);
  });
});
