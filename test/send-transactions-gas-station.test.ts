/**
 * The emulated gas station through @turnkey/sdk-server: sponsored eth_send_transaction (EIP-7702
 * delegation + an EIP-712 signed batch the paymaster submits), unsponsored multi-call batches,
 * gasStationNonce from get_nonces, get_gas_usage, eth_undelegate_7702 and the retired
 * eth_send_raw_transaction. viem's public client on the chain's RPC is the independent reader.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, hashTypedData, http, parseEther, recoverAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { RunningEmulator } from "../emulator/index.js";
import { EVM_PAYMASTER_ADDRESS } from "../emulator/families/chains/sponsor-keys.js";
import { GAS_DELEGATE_ADDRESS } from "../emulator/families/chains/gas-station/delegate.js";
import { httpClient, sdkClient, startTestEmulator, pollSendStatus } from "./support.js";

const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const SECOND = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu?.stop());

const rpcUrl = (caip2: string) => `${emu.info.baseUrl}/emulator/v1/chains/${caip2}/rpc`;
const chainOf = (caip2: string) => createPublicClient({ transport: http(rpcUrl(caip2)) });

const pollStatus = (id: string) => pollSendStatus(emu, id);

describe("sponsored eth_send_transaction (gas station)", () => {
  it("delegates the account with EIP-7702, the paymaster pays the gas, the sender's ETH moves only by the value", async () => {
    const caip2 = "eip155:8453";
    const chain = chainOf(caip2);
    const client = sdkClient(emu);
    const to = privateKeyToAccount(`0x${"22".repeat(32)}`).address;
    const before = await chain.getBalance({ address: FROM });
    const nonceBefore = await chain.getTransactionCount({ address: FROM });
    expect((await client.getNonces({ address: FROM, caip2, gasStationNonce: true })).gasStationNonce).toBe("0");

    const sent = await client.ethSendTransaction({ from: FROM, caip2, sponsor: true, calls: [{ to, value: parseEther("1").toString() }] });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const hash = status.eth!.txHash as Hex;
    const tx = await chain.getTransaction({ hash });
    expect(tx.from.toLowerCase()).toBe(EVM_PAYMASTER_ADDRESS.toLowerCase());
    expect(tx.type).toBe("eip7702");
    expect(tx.authorizationList?.length).toBe(1);
    // The account now delegates to the gas-station delegate (EIP-7702 designator as its code).
    const code = await chain.getCode({ address: FROM });
    expect(code?.slice(0, 8)).toBe("0xef0100");
    expect((code!.length - 2) / 2).toBe(23);
    expect(await chain.getBalance({ address: to })).toBe(parseEther("1"));
    expect(await chain.getBalance({ address: FROM })).toBe(before - parseEther("1"));
    // The authorization consumed one account nonce; the batch nonce moved on.
    expect(await chain.getTransactionCount({ address: FROM })).toBe(nonceBefore + 1);
    expect((await client.getNonces({ address: FROM, caip2, gasStationNonce: true, nonce: true })).gasStationNonce).toBe("1");

    // A second sponsored send reuses the delegation (no authorization) and takes the nonce given.
    const second = await client.ethSendTransaction({ from: FROM, caip2, sponsor: true, gasStationNonce: "1", calls: [{ to, value: "5" }, { to: SECOND, value: "7" }] });
    expect((await pollStatus(second.sendTransactionStatusId)).txStatus).toBe("INCLUDED");
    const tx2 = await chain.getTransaction({ hash: (await client.getSendTransactionStatus({ sendTransactionStatusId: second.sendTransactionStatusId })).eth!.txHash as Hex });
    expect(tx2.type).toBe("eip1559");
    expect(await chain.getBalance({ address: to })).toBe(parseEther("1") + 5n);
    expect(await chain.getBalance({ address: FROM })).toBe(before - parseEther("1") - 12n);

    const usage = await client.getGasUsage({});
    expect(usage.windowDurationMinutes).toBeGreaterThan(0);
    expect(Number(usage.usageUsd)).toBeGreaterThan(0);
    expect(Number(usage.windowLimitUsd)).toBeGreaterThan(Number(usage.usageUsd));
  });

  it("a sponsored send whose calls move more than the account holds is refused naming parameters.from", async () => {
    const err = await sdkClient(emu).ethSendTransaction({ from: SECOND, caip2: "eip155:8453", sponsor: true, calls: [{ to: FROM, value: parseEther("1000000").toString() }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(JSON.stringify(err)).toContain("parameters.from");
  });

  it("a replayed gas-station nonce reverts with the delegate's InvalidNonce, reported as a custom revert", async () => {
    const caip2 = "eip155:8453";
    const sent = await sdkClient(emu).ethSendTransaction({ from: FROM, caip2, sponsor: true, gasStationNonce: "0", calls: [{ to: SECOND, value: "1" }] });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("FAILED");
    const entry = status.error?.eth?.revertChain?.[0];
    expect(entry?.errorType).toBe("custom");
    expect(entry?.custom?.errorName).toBe("InvalidNonce");
    expect(JSON.parse(entry!.custom!.paramsJson!)).toEqual({ expected: "2", given: "0" });
  });

  it("the signed batch is the EIP-712 BatchExecution viem computes, signed by the account's key", async () => {
    const caip2 = "eip155:8453";
    const chain = chainOf(caip2);
    const sent = await sdkClient(emu).ethSendTransaction({ from: FROM, caip2, sponsor: true, calls: [{ to: SECOND, value: "3", data: "0x" }] });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const tx = await chain.getTransaction({ hash: status.eth!.txHash as Hex });
    const { decodeFunctionData } = await import("viem");
    const { GAS_DELEGATE_ABI } = await import("../emulator/families/chains/gas-station/artifact.js");
    const { args } = decodeFunctionData({ abi: GAS_DELEGATE_ABI, data: tx.input });
    const [calls, nonce, deadline, signature] = args as [{ to: Hex; value: bigint; data: Hex }[], bigint, bigint, Hex];
    const digest = hashTypedData({
      domain: { name: "EmulatorGasDelegate", version: "1", chainId: 8453, verifyingContract: FROM },
      types: { BatchExecution: [{ name: "nonce", type: "uint256" }, { name: "deadline", type: "uint256" }, { name: "calls", type: "Call[]" }], Call: [{ name: "to", type: "address" }, { name: "value", type: "uint256" }, { name: "data", type: "bytes" }] },
      primaryType: "BatchExecution",
      message: { nonce, deadline, calls },
    });
    expect((await recoverAddress({ hash: digest, signature })).toLowerCase()).toBe(FROM.toLowerCase());
  });

  it("an unsponsored batch of calls is sent by the account itself through its delegation", async () => {
    const caip2 = "eip155:84532";
    const chain = chainOf(caip2);
    const a = privateKeyToAccount(`0x${"33".repeat(32)}`).address;
    const b = privateKeyToAccount(`0x${"44".repeat(32)}`).address;
    const sent = await sdkClient(emu).ethSendTransaction({ from: SECOND, caip2, calls: [{ to: a, value: "100" }, { to: b, value: "200" }] });
    const status = await pollStatus(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const tx = await chain.getTransaction({ hash: status.eth!.txHash as Hex });
    expect(tx.from.toLowerCase()).toBe(SECOND.toLowerCase());
    expect(tx.to?.toLowerCase()).toBe(SECOND.toLowerCase());
    expect(await chain.getBalance({ address: a })).toBe(100n);
    expect(await chain.getBalance({ address: b })).toBe(200n);

    // eth_undelegate_7702 removes the delegation: the account's code is empty again. (@turnkey/http: sdk-server 8.2
    // sends the type as ACTIVITY_TYPE_ETH_UNDELEGATE7702, which the published enum does not have.)
    const undelegate = () =>
      httpClient(emu).ethUndelegate7702({ type: "ACTIVITY_TYPE_ETH_UNDELEGATE_7702", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { from: SECOND, caip2 } });
    const und = await undelegate();
    const undId = (und.activity.result as { ethUndelegate7702Result: { sendTransactionStatusId: string } }).ethUndelegate7702Result.sendTransactionStatusId;
    expect((await pollStatus(undId)).txStatus).toBe("INCLUDED");
    expect(await chain.getCode({ address: SECOND })).toBeUndefined();
    const again = await undelegate().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(JSON.stringify(again)).toContain("parameters.from");
  });

  it("an unsponsored batch with maxFeePerGas below maxPriorityFeePerGas is refused naming parameters.maxFeePerGas; nothing reaches the chain", async () => {
    const caip2 = "eip155:10";
    const chain = chainOf(caip2);
    const nonceBefore = await chain.getTransactionCount({ address: SECOND });
    const blockBefore = await chain.getBlockNumber();
    const err = await sdkClient(emu)
      .ethSendTransaction({ from: SECOND, caip2, maxFeePerGas: "1000", maxPriorityFeePerGas: "2000", calls: [{ to: FROM, value: "1" }, { to: FROM, value: "2" }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(JSON.stringify(err)).toContain("parameters.maxFeePerGas");
    expect(JSON.stringify(err)).toContain("maxFeePerGas must be at least maxPriorityFeePerGas");
    expect(await chain.getTransactionCount({ address: SECOND })).toBe(nonceBefore);
    expect(await chain.getBlockNumber()).toBe(blockBefore);
    // Neither the account's delegation nor the gas-station delegate code was written.
    expect(await chain.getCode({ address: SECOND })).toBeUndefined();
    expect(await chain.getCode({ address: GAS_DELEGATE_ADDRESS })).toBeUndefined();
  });

  it("an unsponsored batch its account cannot pay for is refused naming parameters.from with what it needs; nothing is sent", async () => {
    const caip2 = "eip155:10";
    const chain = chainOf(caip2);
    const nonceBefore = await chain.getTransactionCount({ address: SECOND });
    const held = await chain.getBalance({ address: SECOND });
    const err = await sdkClient(emu)
      .ethSendTransaction({ from: SECOND, caip2, calls: [{ to: FROM, value: held.toString() }, { to: FROM, value: "1" }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(JSON.stringify(err)).toContain("parameters.from");
    expect(JSON.stringify(err)).toMatch(new RegExp(`insufficient funds: ${SECOND} holds ${held} wei on ${caip2}, the batch needs up to [0-9]+ \\(value ${held + 1n} \\+ gasLimit [0-9]+ \\* maxFeePerGas [0-9]+\\)`));
    expect(await chain.getTransactionCount({ address: SECOND })).toBe(nonceBefore);
    expect(await chain.getBalance({ address: SECOND })).toBe(held);
    // Refused before anything was written: no delegation of the account, no gas-station delegate code.
    expect(await chain.getCode({ address: SECOND })).toBeUndefined();
    expect(await chain.getCode({ address: GAS_DELEGATE_ADDRESS })).toBeUndefined();
  });

  it("sponsorship stops at the organization's window limit (set on the control route), naming parameters.sponsor", async () => {
    const caip2 = "eip155:1";
    const control = await fetch(`${emu.info.baseUrl}/emulator/v1/gas-station/limits`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ organizationId: emu.info.organizationId, orgWindowLimitUsd: "0.000001", subOrgWindowLimitUsd: "0.000001", windowDurationMinutes: 60 }),
    });
    expect(control.status).toBe(200);
    const client = sdkClient(emu);
    const usage = await client.getGasUsage({});
    expect(usage).toMatchObject({ windowDurationMinutes: 60, windowLimitUsd: "0.000001" });
    const err = await client.ethSendTransaction({ from: FROM, caip2, sponsor: true, calls: [{ to: SECOND, value: "1" }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(JSON.stringify(err)).toContain("parameters.sponsor");
    expect(JSON.stringify(err)).toContain("limit");
  });
});

describe("eth_send_raw_transaction (retired path)", () => {
  it("broadcasts a transaction signed elsewhere and answers its hash", async () => {
    const caip2 = "eip155:11155111";
    const chain = chainOf(caip2);
    const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"); // Anvil's public test key 1
    const wallet = createWalletClient({ account, transport: http(rpcUrl(caip2)) });
    const request = await wallet.prepareTransactionRequest({ chain: null, to: FROM, value: 9n });
    const signed = await account.signTransaction({ ...request, chainId: 11155111 } as never);
    const r = await httpClient(emu).ethSendRawTransaction({ type: "ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { signedTransaction: signed, caip2 } } as never);
    const hash = (r.activity.result as { ethSendRawTransactionResult: { transactionHash: Hex } }).ethSendRawTransactionResult.transactionHash;
    const receipt = await chain.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(account.address.toLowerCase());
  });
});
