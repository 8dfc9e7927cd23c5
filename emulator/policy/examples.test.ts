/**
 * Every documented example policy parses, allows (or, for DENY policies, denies) a
 * matching request and does not for a non-matching one. Chain contexts come from real
 * transactions built with viem, @solana/web3.js, @solana/spl-token, tronweb and
 * bitcoinjs-lib.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, getAddress, parseAbi, serializeTransaction } from "viem";
import { Keypair, SystemProgram, Transaction, TransactionMessage, VersionedTransaction, AddressLookupTableAccount } from "@solana/web3.js";
import { createTransferCheckedInstruction } from "@solana/spl-token";
import { utils as tronUtils } from "tronweb";
import * as bitcoin from "bitcoinjs-lib";
import { buildActivityContext } from "./context.js";
import { registry } from "../families.js";
import { buildBitcoinTxContext } from "./context-bitcoin.js";
import { buildEip712Context, buildEthTxContext } from "./context-eth.js";
import { buildSolanaTxContext } from "./context-solana.js";
import { buildTronTxContext } from "./context-tron.js";
import { compilePolicy, evaluatePolicies, Outcome, type PolicyInput } from "./policy.js";
import type { EvaluationContext } from "./evaluate.js";

const { policyOf } = registry;

const ALLOW_ALL = compilePolicy({ policyId: "allow-all", effect: "EFFECT_ALLOW", condition: "true" });

interface Example {
  name: string;
  policy: Omit<PolicyInput, "policyId">;
  match: EvaluationContext;
  nonMatch: EvaluationContext;
  now?: Date;
  nonMatchNow?: Date;
}

/** ALLOW policies alone: ALLOW vs not ALLOW. DENY policies beside an allow-all: DENY_EXPLICIT vs ALLOW. */
function check(ex: Example) {
  const policy = compilePolicy({ policyId: "p", ...ex.policy });
  const set = ex.policy.effect === "EFFECT_DENY" ? [policy, ALLOW_ALL] : [policy];
  const hit = evaluatePolicies(set, ex.match, { now: ex.now });
  const miss = evaluatePolicies(set, ex.nonMatch, { now: ex.nonMatchNow ?? ex.now });
  expect(hit.policyEvaluations[0]!.outcome, `${ex.name}: match`).toBe(ex.policy.effect === "EFFECT_DENY" ? Outcome.DENY_EXPLICIT : Outcome.ALLOW);
  expect(hit.outcome).toBe(ex.policy.effect === "EFFECT_DENY" ? Outcome.DENY_EXPLICIT : Outcome.ALLOW);
  expect([Outcome.DENY_IMPLICIT, Outcome.REQUIRES_CONSENSUS, Outcome.TIME_INACTIVE, Outcome.ERROR], `${ex.name}: non-match`).toContain(miss.policyEvaluations[0]!.outcome);
  expect(miss.outcome).toBe(ex.policy.effect === "EFFECT_DENY" ? Outcome.ALLOW : miss.outcome === Outcome.REQUIRES_CONSENSUS ? Outcome.REQUIRES_CONSENSUS : Outcome.DENY_IMPLICIT);
}

const user = (id: string, tags: string[] = []) => ({ id, tags, email: `${id}@example.com`, alias: id });
const act = (type: string, intent: Record<string, unknown> = {}) => buildActivityContext(type, intent, policyOf(type));

// ---- Ethereum fixtures (viem) ----
const ALLOWED = getAddress("0x0c8b6a5c8e1a2c1f7d5e0a4b3c2d1e0f9a8b7c6d");
const OTHER = "0x1111111111111111111111111111111111111111";
const ethTx = (fields: Partial<{ to: `0x${string}`; data: `0x${string}`; chainId: number; nonce: number; value: bigint }>) =>
  serializeTransaction({ type: "eip1559", chainId: 11155111, nonce: 0, to: ALLOWED as `0x${string}`, maxFeePerGas: 1n, gas: 21000n, ...fields });
const weth = parseAbi(["function withdraw(uint256 wad)"]);
const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);
const eth = (hex: string, abi?: typeof weth) => ({ tx: buildEthTxContext(hex, { abi }) });

const hyperliquid = (primaryType: string) =>
  buildEip712Context({
    domain: { name: "HyperliquidSignTransaction", version: "1", chainId: 42161, verifyingContract: "0x0000000000000000000000000000000000000000" },
    types: {
      [primaryType]: [
        { name: "hyperliquidChain", type: "string" },
        { name: "agentAddress", type: "address" },
        { name: "agentName", type: "string" },
        { name: "nonce", type: "uint64" },
      ],
    },
    primaryType,
    message: { hyperliquidChain: "Mainnet", agentAddress: OTHER, agentName: "bot", nonce: 1700000000000 },
  });
const permit = (token: string) =>
  buildEip712Context({
    domain: { name: "Permit2", chainId: 1, verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3" },
    types: {
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
    message: { permitted: [{ token, amount: "1" }], nonce: "0" },
  });
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

// ---- Solana fixtures (@solana/web3.js, @solana/spl-token) ----
const key = (n: number) => Keypair.fromSeed(new Uint8Array(32).fill(n)).publicKey;
const payer = key(1);
const blockhash = key(99).toBase58();
const solTransfer = (to = key(2), extra: (t: Transaction) => void = () => {}) => {
  const tx = new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: to, lamports: 1000 }));
  extra(tx);
  return { tx: buildSolanaTxContext(Buffer.from(tx.serialize({ requireAllSignatures: false })).toString("hex")) };
};
const splTransfer = (source = key(3), instructionCount = 1) => {
  const tx = new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(createTransferCheckedInstruction(source, key(4), key(5), payer, 10n, 6));
  if (instructionCount > 1) tx.add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: key(2), lamports: 1 }));
  return { tx: buildSolanaTxContext(Buffer.from(tx.serialize({ requireAllSignatures: false })).toString("hex")) };
};
const solV0WithLookup = () => {
  const table = new AddressLookupTableAccount({ key: key(7), state: { deactivationSlot: 0n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [key(2)] } });
  const msg = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer, toPubkey: key(2), lamports: 1 })] }).compileToV0Message([table]);
  return { tx: buildSolanaTxContext(Buffer.from(new VersionedTransaction(msg).serialize()).toString("hex")) };
};

// ---- Tron fixtures (tronweb) ----
const tron = (type: "TransferContract" | "TriggerSmartContract", amount = 0) => {
  const owner = tronUtils.address.toHex("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8");
  const value =
    type === "TransferContract"
      ? { owner_address: owner, to_address: "41e9d79cc47518930bc322d9bf7cddd260a0260a8d", amount }
      : { owner_address: owner, contract_address: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c", data: "a9059cbb" + "0".repeat(64) };
  const json = { raw_data: { contract: [{ type, parameter: { type_url: `type.googleapis.com/protocol.${type}`, value } }], ref_block_bytes: "0d4e", ref_block_hash: "a1b2c3d4e5f60718", expiration: 1700000060000, timestamp: 1700000000000 } };
  return { tx: buildTronTxContext(tronUtils.transaction.txPbToRawDataHex(tronUtils.transaction.txJsonToPb(json as never)) as string) };
};

// ---- Bitcoin fixtures (bitcoinjs-lib) ----
const PREV = "8f4e2b9f0d9a1e2c3b4a5968778695a4b3c2d1e0f9e8d7c6b5a4938271605f4e";
const btc = (outputs: number[], inputValue: number, vout = 0) => {
  const tx = new bitcoin.Transaction();
  tx.addInput(Buffer.from(PREV, "hex").reverse(), vout);
  const script = bitcoin.payments.p2wpkh({ hash: Buffer.alloc(20, 1) }).output!;
  for (const v of outputs) tx.addOutput(script, BigInt(v));
  return {
    tx: buildBitcoinTxContext({
      version: tx.version,
      inputs: tx.ins.map((i) => ({ txId: Buffer.from(i.hash).reverse().toString("hex"), vout: i.index, sequence: i.sequence })),
      outputs: tx.outs.map((o) => ({ value: o.value, scriptPubKey: Buffer.from(o.script).toString("hex") })),
      locktime: { amount: tx.locktime, type: "Blocks" },
      fee: BigInt(inputValue) - tx.outs.reduce((s, o) => s + BigInt(o.value), 0n),
    }),
  };
};

const USER_ID = "4b894565-fa15-4e5f-a6f2-3f3d5c1b8e41";
const sign = act("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", { type: "TRANSACTION_TYPE_ETHEREUM" });

const examples: Example[] = [
  {
    name: "single user to a single address",
    policy: { effect: "EFFECT_ALLOW", consensus: `approvers.any(user, user.id == '${USER_ID}')`, condition: `eth.tx.to == '${ALLOWED.toLowerCase()}'` },
    match: { approvers: [user(USER_ID)], activity: sign, eth: eth(ethTx({})) },
    nonMatch: { approvers: [user(USER_ID)], activity: sign, eth: eth(ethTx({ to: OTHER })) },
  },
  {
    name: "wallet creation",
    policy: { effect: "EFFECT_ALLOW", condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'" },
    match: { activity: act("ACTIVITY_TYPE_CREATE_WALLET") },
    nonMatch: { activity: act("ACTIVITY_TYPE_DELETE_WALLETS") },
  },
  {
    name: "tag-based consensus",
    policy: { effect: "EFFECT_ALLOW", consensus: "approvers.any(user, user.tags.contains('finance'))" },
    match: { approvers: [user("a", ["finance"])] },
    nonMatch: { approvers: [user("a", ["ops"])] },
  },
  {
    name: "two approvers with a tag",
    policy: { effect: "EFFECT_ALLOW", consensus: "approvers.filter(user, user.tags.contains('finance')).count() >= 2" },
    match: { approvers: [user("a", ["finance"]), user("b", ["finance"])] },
    nonMatch: { approvers: [user("a", ["finance"]), user("b", ["ops"])] },
  },
  {
    name: "per-tag minimums",
    policy: {
      effect: "EFFECT_ALLOW",
      consensus: "approvers.filter(user, user.tags.contains('security')).count() >= 1 && approvers.filter(user, user.tags.contains('ops')).count() >= 2",
    },
    match: { approvers: [user("a", ["security"]), user("b", ["ops"]), user("c", ["ops"])] },
    nonMatch: { approvers: [user("a", ["security"]), user("b", ["ops"])] },
  },
  {
    name: "deny deletes approved by a tag",
    policy: { effect: "EFFECT_DENY", consensus: "approvers.any(user, user.tags.contains('intern'))", condition: "activity.action == 'DELETE'" },
    match: { approvers: [user("a", ["intern"])], activity: act("ACTIVITY_TYPE_DELETE_USERS", { userIds: ["x"] }) },
    nonMatch: { approvers: [user("a", ["intern"])], activity: act("ACTIVITY_TYPE_CREATE_USERS_V4") },
  },
  {
    name: "OTP activities",
    policy: { effect: "EFFECT_ALLOW", condition: "activity.resource in ['AUTH','OTP'] && activity.action in ['CREATE','VERIFY']" },
    match: { activity: act("ACTIVITY_TYPE_VERIFY_OTP_V2") },
    nonMatch: { activity: act("ACTIVITY_TYPE_CREATE_WALLET") },
  },
  {
    name: "activity kind",
    policy: { effect: "EFFECT_ALLOW", condition: "activity.kind == 'SIGN_TRANSACTION'" },
    match: { activity: sign },
    nonMatch: { activity: act("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2") },
  },
  {
    name: "passkey-only consensus",
    policy: { effect: "EFFECT_ALLOW", consensus: "credentials.any(credential, credential.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')" },
    match: { credentials: [{ id: "c", user_id: "u", type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR", public_key: "02ab" }] },
    nonMatch: { credentials: [{ id: "c", user_id: "u", type: "CREDENTIAL_TYPE_API_KEY_P256", public_key: "02ab" }] },
  },
  {
    name: "export one address",
    policy: { effect: "EFFECT_ALLOW", condition: `activity.action == 'EXPORT' && wallet_account.address == '${ALLOWED.toLowerCase()}'` },
    match: { activity: act("ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT"), wallet_account: { address: ALLOWED.toLowerCase() } },
    nonMatch: { activity: act("ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT"), wallet_account: { address: OTHER } },
  },
  {
    name: "sign with one wallet",
    policy: { effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN' && wallet.id == 'w-1'" },
    match: { activity: sign, wallet: { id: "w-1" } },
    nonMatch: { activity: sign, wallet: { id: "w-2" } },
  },
  {
    name: "sign with one private key",
    policy: { effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN' && private_key.id == 'k-1'" },
    match: { activity: sign, private_key: { id: "k-1" } },
    nonMatch: { activity: sign, private_key: { id: "k-2" } },
  },
  {
    name: "WETH withdraw below 1 ether (uploaded ABI)",
    policy: { effect: "EFFECT_ALLOW", condition: "eth.tx.contract_call_args['wad'] < 1000000000000000000" },
    match: { eth: eth(ethTx({ data: encodeFunctionData({ abi: weth, functionName: "withdraw", args: [10n ** 18n - 1n] }) }), weth) },
    nonMatch: { eth: eth(ethTx({ data: encodeFunctionData({ abi: weth, functionName: "withdraw", args: [10n ** 18n] }) }), weth) },
  },
  {
    name: "ERC-20 transfer selector",
    policy: { effect: "EFFECT_ALLOW", condition: "eth.tx.data[0..10] == '0xa9059cbb'" },
    match: { eth: eth(ethTx({ data: encodeFunctionData({ abi: erc20, functionName: "transfer", args: [OTHER, 1n] }) })) },
    nonMatch: { eth: eth(ethTx({ data: encodeFunctionData({ abi: weth, functionName: "withdraw", args: [1n] }) })) },
  },
  {
    name: "Sepolia only",
    policy: { effect: "EFFECT_ALLOW", condition: "eth.tx.chain_id == 11155111" },
    match: { eth: eth(ethTx({})) },
    nonMatch: { eth: eth(ethTx({ chainId: 1 })) },
  },
  {
    name: "nonce at most 3",
    policy: { effect: "EFFECT_ALLOW", condition: "eth.tx.nonce <= 3" },
    match: { eth: eth(ethTx({ nonce: 3 })) },
    nonMatch: { eth: eth(ethTx({ nonce: 4 })) },
  },
  {
    name: "Hyperliquid approve agent",
    policy: {
      effect: "EFFECT_ALLOW",
      condition:
        "eth.eip_712.domain.name == 'HyperliquidSignTransaction' && eth.eip_712.primary_type == 'HyperliquidTransaction:ApproveAgent' && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    },
    match: { eth: { eip_712: hyperliquid("HyperliquidTransaction:ApproveAgent") }, activity: act("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2") },
    nonMatch: { eth: { eip_712: hyperliquid("HyperliquidTransaction:Withdraw") }, activity: act("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2") },
  },
  {
    name: "Permit2 tokens",
    policy: { effect: "EFFECT_ALLOW", condition: `eth.eip_712.message['permitted'].all(p, p['token'] == '${USDC}')` },
    match: { eth: { eip_712: permit("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48") } },
    nonMatch: { eth: { eip_712: permit(OTHER) } },
  },
  {
    name: "deny NO_OP raw signing",
    policy: {
      effect: "EFFECT_DENY",
      condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && activity.params.hash_function == 'HASH_FUNCTION_NO_OP' && activity.params.encoding != 'PAYLOAD_ENCODING_EIP712'",
    },
    match: { activity: act("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: "x", payload: "ab", hashFunction: "HASH_FUNCTION_NO_OP", encoding: "PAYLOAD_ENCODING_HEXADECIMAL" }) },
    nonMatch: { activity: act("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: "x", payload: "ab", hashFunction: "HASH_FUNCTION_NO_OP", encoding: "PAYLOAD_ENCODING_EIP712" }) },
  },
  {
    name: "EIP-7702 authorization (hand-built context: no builder yet)",
    policy: { effect: "EFFECT_ALLOW", condition: `eth.eip_7702_authorization.address == '${OTHER}' && eth.eip_7702_authorization.chain_id == 1 && eth.eip_7702_authorization.nonce == 0` },
    match: { eth: { eip_7702_authorization: { address: OTHER, chain_id: 1n, nonce: 0n } } },
    nonMatch: { eth: { eip_7702_authorization: { address: OTHER, chain_id: 1n, nonce: 1n } } },
  },
  {
    name: "Solana transfers to one recipient",
    policy: { effect: "EFFECT_ALLOW", condition: `solana.tx.transfers.all(transfer, transfer.to == '${key(2).toBase58()}')` },
    match: { solana: solTransfer() },
    nonMatch: { solana: solTransfer(key(9)) },
  },
  {
    name: "Solana System Program only",
    policy: { effect: "EFFECT_ALLOW", condition: "solana.tx.program_keys.all(p, p == '11111111111111111111111111111111')" },
    match: { solana: solTransfer() },
    nonMatch: { solana: splTransfer() },
  },
  {
    name: "deny Solana transfers to a bad address",
    policy: { effect: "EFFECT_DENY", condition: `solana.tx.transfers.any(transfer, transfer.to == '${key(9).toBase58()}')` },
    match: { solana: solTransfer(key(9)) },
    nonMatch: { solana: solTransfer() },
  },
  {
    name: "deny lookup tables",
    policy: { effect: "EFFECT_DENY", condition: "solana.tx.address_table_lookups.count() > 0" },
    match: { solana: solV0WithLookup() },
    nonMatch: { solana: solTransfer() },
  },
  {
    name: "one SPL transfer from one token account",
    policy: {
      effect: "EFFECT_ALLOW",
      condition: `solana.tx.instructions.count() == 1 && solana.tx.spl_transfers.count() == 1 && solana.tx.spl_transfers.all(transfer, transfer.from == '${key(3).toBase58()}')`,
    },
    match: { solana: splTransfer() },
    nonMatch: { solana: splTransfer(key(3), 2) },
  },
  {
    name: "count without parentheses",
    policy: { effect: "EFFECT_ALLOW", condition: "solana.tx.transfers.count == 1" },
    match: { solana: solTransfer() },
    nonMatch: { solana: solTransfer(key(2), (t) => t.add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: key(3), lamports: 1 }))) },
  },
  {
    name: "Tron amount cap",
    policy: { effect: "EFFECT_ALLOW", condition: "tron.tx.contract[0].amount < 10000000" },
    match: { tron: tron("TransferContract", 9_999_999) },
    nonMatch: { tron: tron("TransferContract", 10_000_000) },
  },
  {
    name: "Tron TransferContract only",
    policy: { effect: "EFFECT_ALLOW", condition: "tron.tx.contract[0].type == 'TransferContract'" },
    match: { tron: tron("TransferContract", 1) },
    nonMatch: { tron: tron("TriggerSmartContract") },
  },
  {
    name: "Tron TRC-20 transfer selector",
    policy: { effect: "EFFECT_ALLOW", condition: "tron.tx.contract[0].data[0..8] == 'a9059cbb'" },
    match: { tron: tron("TriggerSmartContract") },
    // A TransferContract has no data field: MissingField → error, not allow.
    nonMatch: { tron: tron("TransferContract", 1) },
  },
  {
    name: "Bitcoin output cap",
    policy: { effect: "EFFECT_ALLOW", condition: "bitcoin.tx.outputs.all(o, o.value < 200000)" },
    match: { bitcoin: btc([150000, 40000], 200000) },
    nonMatch: { bitcoin: btc([200000], 210000) },
  },
  {
    name: "Bitcoin fee cap",
    policy: { effect: "EFFECT_ALLOW", condition: "bitcoin.tx.fee <= 10000" },
    match: { bitcoin: btc([190000], 200000) },
    nonMatch: { bitcoin: btc([189999], 200000) },
  },
  {
    name: "Bitcoin specific input",
    policy: { effect: "EFFECT_ALLOW", condition: `bitcoin.tx.inputs.all(i, i.tx_id == '${PREV}' && i.vout == 1)` },
    match: { bitcoin: btc([1], 2, 1) },
    nonMatch: { bitcoin: btc([1], 2, 0) },
  },
  {
    name: "self-delete",
    policy: { effect: "EFFECT_ALLOW", condition: `activity.type == 'ACTIVITY_TYPE_DELETE_USERS' && activity.params.user_ids.count() == 1 && '${USER_ID}' in activity.params.user_ids` },
    match: { activity: act("ACTIVITY_TYPE_DELETE_USERS", { userIds: [USER_ID] }) },
    nonMatch: { activity: act("ACTIVITY_TYPE_DELETE_USERS", { userIds: [USER_ID, "other"] }) },
  },
  {
    name: "time window",
    policy: { effect: "EFFECT_ALLOW", condition: "true", time: "time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')" },
    match: {},
    nonMatch: {},
    now: new Date("2026-03-31T23:59:59Z"),
    nonMatchNow: new Date("2026-04-01T00:00:00Z"),
  },
  {
    name: "business hours",
    policy: { effect: "EFFECT_ALLOW", time: "CronSpan('0 9 * * 1-5', '8h', 'America/New_York')" },
    match: {},
    nonMatch: {},
    now: new Date("2026-03-06T15:00:00Z"),
    nonMatchNow: new Date("2026-03-07T15:00:00Z"),
  },
  {
    name: "outside business hours (negated CronSpan)",
    policy: { effect: "EFFECT_DENY", time: "!CronSpan('0 9 * * 1-5', '8h', 'America/New_York')" },
    match: {},
    nonMatch: {},
    now: new Date("2026-03-07T15:00:00Z"),
    nonMatchNow: new Date("2026-03-06T15:00:00Z"),
  },
];

describe("documented example policies", () => {
  for (const ex of examples) it(ex.name, () => check(ex));
});
