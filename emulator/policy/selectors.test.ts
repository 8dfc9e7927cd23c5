import { describe, expect, it } from "vitest";
import { evaluate } from "./evaluate.js";
import { parseExpression } from "./parser.js";
import { selectorsCondition, type Selector } from "./selectors.js";

const ctx = {
  activity: { type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", params: { type: "TRANSACTION_TYPE_ETHEREUM" } },
  eth: { tx: { value: 10n ** 18n, to: "0xabc", data: "0xa9059cbb00" } },
  approvers: [{ id: "u1", tags: ["ops", "sec"] }],
  wallet: { label: "Treasury main" },
};

/** Whether the selectors hold for `ctx`, through the condition they make and the policy evaluator. */
const holds = (...selectors: Selector[]) => evaluate(parseExpression(selectorsCondition(selectors, "parameters.selectors")!, { label: "condition" }), ctx);
const refusal = (selectors: Selector[]) => {
  try {
    selectorsCondition(selectors, "parameters.selectors");
  } catch (e) {
    return (e as { details: { fieldViolations?: { field: string }[] }[] }).details.find((d) => d.fieldViolations)!.fieldViolations![0]!.field;
  }
  throw new Error("expected a refusal");
};

describe("selectorsCondition", () => {
  it("decides each operator as its name says, over strings, integers and lists", () => {
    expect(holds({ subject: "activity.type", operator: "OPERATOR_EQUAL", target: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" })).toBe(true);
    expect(holds({ subject: "activity.type", operator: "OPERATOR_NOT_EQUAL", target: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" })).toBe(false);
    expect(holds({ subject: "eth.tx.value", operator: "OPERATOR_MORE_THAN", target: "1" })).toBe(true);
    expect(holds({ subject: "eth.tx.value", operator: "OPERATOR_LESS_THAN_OR_EQUAL", targets: ["1000000000000000000"] })).toBe(true);
    expect(holds({ subject: "eth.tx.value", operator: "OPERATOR_LESS_THAN", target: "1000000000000000000" })).toBe(false);
    expect(holds({ subject: "wallet.label", operator: "OPERATOR_CONTAINS", target: "main" })).toBe(true);
    expect(holds({ subject: "eth.tx.to", operator: "OPERATOR_IN", targets: ["0xabc", "0xdef"] })).toBe(true);
    expect(holds({ subject: "eth.tx.to", operator: "OPERATOR_NOT_IN", targets: ["0xabc"] })).toBe(false);
    expect(holds({ subject: "approvers[0].tags", operator: "OPERATOR_CONTAINS_ONE", targets: ["sec", "dev"] })).toBe(true);
    expect(holds({ subject: "approvers[0].tags", operator: "OPERATOR_CONTAINS_ALL", targets: ["sec", "dev"] })).toBe(false);
    expect(holds({ subject: "approvers[0].tags", operator: "OPERATOR_CONTAINS_ALL", targets: ["sec", "ops"] })).toBe(true);
  });

  it("requires every selector (&&), keeps a target's quotes inside its string, and says nothing for no selectors", () => {
    expect(holds({ subject: "activity.type", operator: "OPERATOR_EQUAL", target: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" }, { subject: "eth.tx.to", operator: "OPERATOR_EQUAL", target: "0xdef" })).toBe(false);
    expect(holds({ subject: "wallet.label", operator: "OPERATOR_NOT_EQUAL", target: "it's \\ main" })).toBe(true);
    expect(selectorsCondition([], "parameters.selectors")).toBeUndefined();
  });

  it("refuses what it cannot read, naming the selector's field", () => {
    expect(refusal([{ operator: "OPERATOR_EQUAL", target: "x" }])).toBe("parameters.selectors[0].subject");
    expect(refusal([{ subject: "activity.type", target: "x" }])).toBe("parameters.selectors[0].operator");
    expect(refusal([{ subject: "activity.type", operator: "OPERATOR_EQUAL" }])).toBe("parameters.selectors[0].target");
    expect(refusal([{ subject: "activity.type", operator: "OPERATOR_EQUAL", targets: ["a", "b"] }])).toBe("parameters.selectors[0].targets");
    expect(refusal([{ subject: "activity.type == 'x' || true", operator: "OPERATOR_EQUAL", target: "x" }])).toBe("parameters.selectors[0].subject");
    expect(refusal([{ subject: "nosuchroot.field", operator: "OPERATOR_EQUAL", target: "x" }])).toBe("parameters.selectors[0].subject");
  });
});
