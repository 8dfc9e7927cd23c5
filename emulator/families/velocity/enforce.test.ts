import { describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, parseEther, serializeTransaction } from "viem";
import { contributionTo, transfersOf } from "./enforce.js";
import { compare, scaleOf, scaledThreshold } from "./definition.js";
import type { VelocityControlRow } from "./repository.js";

const TOKEN = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const TO = "0x2Ad9eA1E677949a536A270CEC812D6e868C88108";

function control(definition: { caip19: string; decimals: string }[], filter?: string[]): VelocityControlRow {
  return {
    id: "c",
    orgId: "o",
    name: "n",
    identifier: "i",
    dataSource: { chainAssetTransfer: { definition, ...(filter ? { filter: { activity: filter.map((activityType) => ({ activityType })) } } : {}) } },
    aggregation: { method: "VELOCITY_CONTROL_AGGREGATION_METHOD_SUM", operator: "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN", threshold: "1", window: { infinite: {} }, groupBy: { organization: {} } },
    createdAt: 0,
    updatedAt: 0,
  };
}

describe("transfers and contributions", () => {
  it("reads native value and ERC-20 amounts of eth_send_transaction calls, exactly across decimals", () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [TO, 2_500_000n] });
    const params = { caip2: "eip155:1", calls: [{ to: TO, value: parseEther("0.5").toString() }, { to: TOKEN, data }] };
    const t = transfersOf("ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", params, {});
    expect(t).toEqual([
      { chain: "eip155:1", asset: "slip44:*", amount: parseEther("0.5") },
      { chain: "eip155:1", asset: `erc20:${TOKEN.toLowerCase()}`, amount: 2_500_000n },
    ]);
    // 0.5 ETH + 2.5 USDC (6 decimals) in asset units, at scale 18.
    const c = control([
      { caip19: "eip155:1/slip44:60", decimals: "18" },
      { caip19: `eip155:1/erc20:${TOKEN}`, decimals: "6" },
    ]);
    expect(contributionTo(c, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", t)).toEqual({ amount: parseEther("3"), count: 2 });
    // Another chain's assets do not match; a filter on another kind excludes the activity.
    expect(contributionTo(control([{ caip19: "eip155:8453/slip44:60", decimals: "18" }]), "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", t)).toBeUndefined();
    expect(contributionTo(control([{ caip19: "eip155:1/slip44:60", decimals: "18" }], ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"]), "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2", t)).toBeUndefined();
  });

  it("reads sign_transaction's chain from the transaction; a chain-less legacy transaction matches nothing", () => {
    const unsigned = serializeTransaction({ type: "eip1559", chainId: 137, to: TO, value: 7n, nonce: 0, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    const t = transfersOf("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", {}, { transaction: { type: "TRANSACTION_TYPE_ETHEREUM", unsigned } });
    expect(contributionTo(control([{ caip19: "eip155:137/slip44:966", decimals: "18" }]), "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", t)).toEqual({ amount: 7n, count: 1 });
    const legacy = serializeTransaction({ to: TO, value: 7n, nonce: 0, gas: 21000n, gasPrice: 1n });
    expect(transfersOf("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", {}, { transaction: { type: "TRANSACTION_TYPE_ETHEREUM", unsigned: legacy } })).toEqual([]);
    expect(transfersOf("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", {}, { transaction: { type: "TRANSACTION_TYPE_ETHEREUM", unsigned } })).toEqual([]);
  });

  it("scales thresholds and compares by operator", () => {
    const scale = scaleOf({ chainAssetTransfer: { definition: [{ caip19: "x:y/a:b", decimals: "24" }] } });
    expect(scale).toBe(24);
    expect(scaledThreshold("1.5", 18)).toBe(parseEther("1.5"));
    expect(scaledThreshold("2", scale)).toBe(2n * 10n ** 24n);
    expect(compare(5n, "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN", 5n)).toBe(false);
    expect(compare(5n, "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL", 5n)).toBe(true);
    expect(compare(5n, "VELOCITY_CONTROL_AGGREGATION_OPERATOR_EQUAL", 5n)).toBe(true);
    expect(compare(4n, "VELOCITY_CONTROL_AGGREGATION_OPERATOR_GREATER_THAN_OR_EQUAL", 5n)).toBe(false);
    expect(compare(6n, "VELOCITY_CONTROL_AGGREGATION_OPERATOR_GREATER_THAN", 5n)).toBe(true);
  });
});
