/**
 * Velocity controls end to end: create / get / list / delete through the published
 * @turnkey/http client (@turnkey/sdk-server 8.2.1 has no velocity-control methods yet), the
 * service's errors for bad definitions (nothing written), and enforcement: a non-root user whose
 * policy reads `controls.<identifier>` sends and signs through @turnkey/sdk-server until the
 * control's window is full, is refused with the policy engine's denial, and may send again once
 * the emulated clock has moved past the window. Amounts are checked on the local chain with viem.
 * Semantics: docs/velocity-controls.md.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, parseEther, parseTransaction, serializeTransaction, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { TurnkeyRequestError } from "@turnkey/http";
import { createApiKeyUser, httpClient, pollSendStatus, rawPost, sdkClient, storeCounts, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import type { RunningEmulator } from "../emulator/index.js";

const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const CAIP2 = "eip155:8453";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const DENIED = /You don't have sufficient permissions to take this action/;
const HOUR = 3600;

type Intent = {
  name: string;
  identifier: string;
  dataSource: Record<string, unknown>;
  aggregation: Record<string, unknown>;
};

/** Base mainnet-style native ETH on the emulated Base chain, summed per user over a rolling hour, at most `threshold` ETH. */
function ethLimit(identifier: string, threshold: string, overrides: Partial<Intent> = {}): Intent {
  return {
    name: `${identifier} limit`,
    identifier,
    dataSource: { chainAssetTransfer: { definition: [{ caip19: `${CAIP2}/slip44:60`, decimals: "18" }], phase: { signature: {} } } },
    aggregation: {
      method: "VELOCITY_CONTROL_AGGREGATION_METHOD_SUM",
      operator: "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL",
      threshold,
      window: { rolling: { duration: String(HOUR) } },
      groupBy: { user: {} },
    },
    ...overrides,
  };
}

async function createControl(emu: RunningEmulator, parameters: Intent): Promise<string> {
  const r = await httpClient(emu).createVelocityControl({ type: "ACTIVITY_TYPE_CREATE_VELOCITY_CONTROL", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: parameters as never });
  expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return r.activity.result.createVelocityControlResult!.velocityControlId;
}

async function advanceClock(emu: RunningEmulator, ms: number): Promise<void> {
  const res = await fetch(`${emu.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advanceMs: ms }) });
  expect(res.status).toBe(200);
}

describe("create / get / list / delete", () => {
  const emu = useTestEmulator();

  it("round-trips a control, lists the organization's controls oldest first with pages, and deletes one", async () => {
    const c = httpClient(emu);
    const organizationId = emu.info.organizationId;
    const intent = ethLimit("hourly_eth", "1.5");
    const id = await createControl(emu, intent);
    const { velocityControl } = await c.getVelocityControl({ organizationId, velocityControlId: id });
    expect(velocityControl).toEqual({
      velocityControlId: id,
      organizationId,
      name: intent.name,
      identifier: "hourly_eth",
      dataSource: intent.dataSource,
      aggregation: intent.aggregation,
      createdAt: expect.objectContaining({ seconds: expect.any(String) }),
      updatedAt: expect.objectContaining({ seconds: expect.any(String) }),
    });
    const counter = await createControl(emu, {
      name: "signatures per wallet",
      identifier: "signatures",
      dataSource: { activityExecution: { filter: { activity: [{ activityType: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" }] } } },
      aggregation: { method: "VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT", operator: "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN", threshold: "10", window: { infinite: {} }, groupBy: { wallet: {} } },
    });
    const all = await c.listVelocityControls({ organizationId });
    expect(all.velocityControls.map((v) => v.velocityControlId)).toEqual([id, counter]);
    expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const first = await c.listVelocityControls({ organizationId, paginationOptions: { limit: "1" } });
    expect(first.velocityControls.map((v) => v.velocityControlId)).toEqual([id]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, endCursor: id });
    const second = await c.listVelocityControls({ organizationId, paginationOptions: { limit: "1", after: id } });
    expect(second.velocityControls.map((v) => v.velocityControlId)).toEqual([counter]);

    const del = await c.deleteVelocityControl({ type: "ACTIVITY_TYPE_DELETE_VELOCITY_CONTROL", timestampMs: String(Date.now()), organizationId, parameters: { velocityControlId: id } });
    expect(del.activity.result.deleteVelocityControlResult).toEqual({ velocityControlId: id });
    await expect(c.getVelocityControl({ organizationId, velocityControlId: id })).rejects.toThrow(/velocity control not found/);
    expect((await c.listVelocityControls({ organizationId })).velocityControls.map((v) => v.velocityControlId)).toEqual([counter]);
    // The identifier is free again once its control is gone.
    await createControl(emu, ethLimit("hourly_eth", "2"));
  });

  it("refuses a duplicate identifier, unknown ids and bad definitions, naming the field and writing nothing", async () => {
    await createControl(emu, ethLimit("taken", "1"));
    const agg = ethLimit("x", "1").aggregation;
    const cat = (ethLimit("x", "1").dataSource as { chainAssetTransfer: Record<string, unknown> }).chainAssetTransfer;
    const cases: [Intent, string, RegExp][] = [
      [ethLimit("taken", "1"), "parameters.identifier", /already exists/],
      [ethLimit("bad-id", "1"), "parameters.identifier", /letters, digits and underscores/],
      [ethLimit("1st", "1"), "parameters.identifier", /start with a letter or underscore/],
      [ethLimit("a".repeat(65), "1"), "parameters.identifier", /at most 64 characters/],
      [{ ...ethLimit("n", "1"), name: " " }, "parameters.name", /must not be empty/],
      [ethLimit("t1", "1.0000000000000000001"), "parameters.aggregation.threshold", /at most 18 fractional digits/],
      [ethLimit("t2", "-1"), "parameters.aggregation.threshold", /non-negative base-10 decimal/],
      [ethLimit("t3", "1".repeat(39)), "parameters.aggregation.threshold", /at most 38 digits/],
      [ethLimit("w1", "1", { aggregation: { ...agg, window: { rolling: { duration: "0" } } } }), "parameters.aggregation.window.rolling.duration", /at least 1 second/],
      [ethLimit("w2", "1", { aggregation: { ...agg, window: { rolling: { duration: "1h" } } } }), "parameters.aggregation.window.rolling.duration", /base-10 integer/],
      [ethLimit("w3", "1", { aggregation: { ...agg, window: { rolling: { duration: "60" }, infinite: {} } } }), "parameters.aggregation.window", /exactly one of rolling, infinite/],
      [ethLimit("g1", "1", { aggregation: { ...agg, groupBy: {} } }), "parameters.aggregation.groupBy", /exactly one of organization, user, wallet/],
      [ethLimit("d1", "1", { dataSource: {} }), "parameters.dataSource", /exactly one of chainAssetTransfer, activityExecution/],
      [ethLimit("d2", "1", { dataSource: { chainAssetTransfer: { ...cat, definition: [] } } }), "parameters.dataSource.chainAssetTransfer.definition", /at least one asset/],
      [ethLimit("d3", "1", { dataSource: { chainAssetTransfer: { ...cat, definition: [{ caip19: "ethereum", decimals: "18" }] } } }), "parameters.dataSource.chainAssetTransfer.definition[0].caip19", /CAIP-19/],
      [ethLimit("d4", "1", { dataSource: { chainAssetTransfer: { ...cat, definition: [{ caip19: "eip155:1/slip44:60", decimals: "256" }] } } }), "parameters.dataSource.chainAssetTransfer.definition[0].decimals", /0 through 255/],
      [ethLimit("d5", "1", { dataSource: { chainAssetTransfer: { ...cat, phase: { submission: {} } } } }), "parameters.dataSource.chainAssetTransfer.phase.submission", /reserved for future use/],
      [
        ethLimit("d6", "1", { dataSource: { chainAssetTransfer: { ...cat, filter: { activity: [{ activityType: "ACTIVITY_TYPE_CREATE_WALLET" }] } } } }),
        "parameters.dataSource.chainAssetTransfer.filter.activity[0].activityType",
        /signs no asset transfer/,
      ],
      [ethLimit("d7", "1", { dataSource: { activityExecution: { filter: { activity: [{ activityType: "ACTIVITY_TYPE_NOPE" }] } } } }), "parameters.dataSource.activityExecution.filter.activity[0].activityType", /unknown activity type/],
      [ethLimit("d8", "1", { dataSource: { activityExecution: {} } }), "parameters.aggregation.method", /no amount to sum/],
    ];
    for (const [parameters, field, message] of cases) {
      const before = storeCounts(emu);
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_VELOCITY_CONTROL", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters });
      const r = await rawPost(emu, "/public/v1/submit/create_velocity_control", body);
      expect(r.status, `${parameters.identifier}: ${JSON.stringify(r.json)}`).toBe(400);
      expect(r.json).toMatchObject({ code: 3, message: expect.stringMatching(message) });
      expect(r.json.details).toEqual(expect.arrayContaining([expect.objectContaining({ fieldViolations: [expect.objectContaining({ field })] })]));
      expect(storeCounts(emu)).toEqual(before);
    }
    const c = httpClient(emu);
    const organizationId = emu.info.organizationId;
    await expect(c.getVelocityControl({ organizationId, velocityControlId: UNKNOWN })).rejects.toThrow(/velocity control not found/);
    await expect(c.getVelocityControl({ organizationId, velocityControlId: "nope" })).rejects.toThrow(/invalid velocity control UUID/);
    const before = storeCounts(emu);
    const body = JSON.stringify({ type: "ACTIVITY_TYPE_DELETE_VELOCITY_CONTROL", timestampMs: String(Date.now()), organizationId, parameters: { velocityControlId: UNKNOWN } });
    const r = await rawPost(emu, "/public/v1/submit/delete_velocity_control", body);
    expect(r.status).toBe(404);
    expect(r.json.message).toMatch(/velocity control not found/);
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("enforcement: a spending limit on sends, over a rolling window of the emulated clock", () => {
  const emu = useTestEmulator();
  let spender: { id: string; key: KeyPair };
  let controlId: string;
  const to = privateKeyToAccount(`0x${"5a".repeat(32)}`).address;
  const chain = () => createPublicClient({ transport: http(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/rpc`) });

  beforeAll(async () => {
    spender = await createApiKeyUser(emu, "spender");
    controlId = await createControl(emu, ethLimit("hourly_eth", "1"));
    await sdkClient(emu).createPolicy({
      policyName: "spender signs within the hourly limit",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${spender.id}')`,
      condition: "activity.action == 'SIGN' && controls.hourly_eth",
      notes: "",
    });
  });

  const send = async (eth: string) => {
    const sent = await sdkClient(emu, spender.key).ethSendTransaction({ from: FROM, caip2: CAIP2, calls: [{ to, value: parseEther(eth).toString() }] });
    const status = await pollSendStatus(emu, sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    expect((await chain().getTransactionReceipt({ hash: status.eth!.txHash as Hex })).status).toBe("success");
  };
  const refused = async (eth: string) => {
    const err = (await sdkClient(emu, spender.key)
      .ethSendTransaction({ from: FROM, caip2: CAIP2, calls: [{ to, value: parseEther(eth).toString() }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as TurnkeyRequestError | undefined;
    expect(err, `a send of ${eth} ETH went through`).toBeDefined();
    expect(err!.message).toMatch(DENIED);
    expect(err!.code).toBe(7);
    expect(JSON.stringify(err!.details)).toContain("OUTCOME_DENY_IMPLICIT");
  };
  const balance = () => chain().getBalance({ address: to });
  const points = () => emu.runtime.store.velocityControls.pointsOf(controlId, null, {});

  it("allows sends while the window's total, this one included, stays within the threshold; refuses the one that would pass it", async () => {
    await send("0.4");
    await send("0.4");
    expect(await balance()).toBe(parseEther("0.8"));
    await refused("0.3"); // 1.1 > 1
    expect(await balance()).toBe(parseEther("0.8"));
    expect(points()).toHaveLength(2); // a refused send counts for nothing
    await send("0.2"); // exactly 1: LESS_THAN_OR_EQUAL holds
    expect(await balance()).toBe(parseEther("1"));
    await refused("0.000000000000000001"); // one wei over
    expect(points().map((p) => p.amount)).toEqual([parseEther("0.4"), parseEther("0.4"), parseEther("0.2")].map(String));
  });

  it("counts signatures too (sign_transaction of an EIP-1559 transfer), and the root user is not bound by it", async () => {
    const unsigned = serializeTransaction({ type: "eip1559", chainId: 8453, to, value: parseEther("0.1"), nonce: 0, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    const sign = (key?: KeyPair) => sdkClient(emu, key).signTransaction({ signWith: FROM, unsignedTransaction: unsigned.slice(2), type: "TRANSACTION_TYPE_ETHEREUM" });
    await expect(sign(spender.key)).rejects.toThrow(DENIED);
    const signed = await sign(); // root: decided by the root quorum, not by policies
    expect(parseTransaction(`0x${signed.signedTransaction.replace(/^0x/, "")}` as Hex).value).toBe(parseEther("0.1"));
    // Grouped by user: the root user's signature is in the root user's bucket, not the spender's.
    expect(points().filter((p) => p.userId === spender.id)).toHaveLength(3);
  });

  it("allows the spender again once the emulated clock has moved past the window", async () => {
    await advanceClock(emu, HOUR * 1000);
    await send("0.9");
    expect(await balance()).toBe(parseEther("1.9"));
    await refused("0.2"); // the new window already holds 0.9
    await advanceClock(emu, HOUR * 1000);
    await send("1");
    expect(await balance()).toBe(parseEther("2.9"));
  });

  it("a policy naming a control that does not exist never allows (evaluation error)", async () => {
    await httpClient(emu).deleteVelocityControl({ type: "ACTIVITY_TYPE_DELETE_VELOCITY_CONTROL", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { velocityControlId: controlId } });
    const err = (await sdkClient(emu, spender.key)
      .ethSendTransaction({ from: FROM, caip2: CAIP2, calls: [{ to, value: "1" }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as TurnkeyRequestError | undefined;
    expect(err?.message).toMatch(DENIED);
    expect(JSON.stringify(err!.details)).toContain("OUTCOME_ERROR");
  });
});

describe("enforcement: a count of activity executions per wallet", () => {
  const emu = useTestEmulator();
  it("allows two signatures per wallet in the window and refuses the third", async () => {
    const spender = await createApiKeyUser(emu, "signer");
    await createControl(emu, {
      name: "two signatures per wallet",
      identifier: "two_signatures",
      dataSource: { activityExecution: { filter: { activity: [{ activityType: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2" }] } } },
      aggregation: { method: "VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT", operator: "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL", threshold: "2", window: { rolling: { duration: "60" } }, groupBy: { wallet: {} } },
    });
    await sdkClient(emu).createPolicy({ policyName: "two a minute", effect: "EFFECT_ALLOW", consensus: `approvers.any(user, user.id == '${spender.id}')`, condition: "controls.two_signatures", notes: "" });
    const sign = (payload: string) => sdkClient(emu, spender.key).signRawPayload({ signWith: FROM, payload, encoding: "PAYLOAD_ENCODING_TEXT_UTF8", hashFunction: "HASH_FUNCTION_SHA256" });
    await sign("one");
    await sign("two");
    await expect(sign("three")).rejects.toThrow(DENIED);
    await advanceClock(emu, 60_000);
    await sign("four");
  });
});
