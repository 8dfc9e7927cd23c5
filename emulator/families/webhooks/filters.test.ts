import { describe, expect, it } from "vitest";
import { TurnkeyError } from "../../core/errors.js";
import type { EmulatorEvent } from "../../core/events.js";
import type { ActivityRow } from "../../core/store/activities.js";
import { filterAccepts, filterFields, parseEventFilter, storedFilter } from "./filters.js";

const FIELD = "parameters.subscriptions[0].filtersJson";

function refusal(eventType: Parameters<typeof parseEventFilter>[0], json: string): TurnkeyError {
  try {
    parseEventFilter(eventType, json, FIELD);
  } catch (e) {
    return e as TurnkeyError;
  }
  throw new Error(`accepted: ${json}`);
}

const activity = (type: string, status: string) => ({ type: "ACTIVITY_UPDATES", orgId: "org-a", activity: { type, status } as ActivityRow }) as EmulatorEvent & { type: "ACTIVITY_UPDATES" };

describe("webhook subscription filters", () => {
  it("accepts an activity when every member accepts it: lists are alternatives, members all apply", () => {
    const f = parseEventFilter("ACTIVITY_UPDATES", '{"type":["ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2","ACTIVITY_TYPE_SIGN_TRANSACTION_V2"],"status":"ACTIVITY_STATUS_CONSENSUS_NEEDED"}', FIELD);
    const accepts = (type: string, status: string, orgId = "org-a") => filterAccepts(f, filterFields(activity(type, status), orgId));
    expect(accepts("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", "ACTIVITY_STATUS_CONSENSUS_NEEDED")).toBe(true);
    expect(accepts("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "ACTIVITY_STATUS_CONSENSUS_NEEDED")).toBe(true);
    expect(accepts("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "ACTIVITY_STATUS_COMPLETED")).toBe(false);
    expect(accepts("ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_CONSENSUS_NEEDED")).toBe(false);
    const byOrg = parseEventFilter("ACTIVITY_UPDATES", '{"organizationId":["org-b"]}', FIELD);
    expect(filterAccepts(byOrg, filterFields(activity("ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_COMPLETED"), "org-b"))).toBe(true);
    expect(filterAccepts(byOrg, filterFields(activity("ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_COMPLETED"), "org-a"))).toBe(false);
    expect(filterAccepts(parseEventFilter("ACTIVITY_UPDATES", "{}", FIELD), filterFields(activity("ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_FAILED"), "x"))).toBe(true);
  });

  it("filters balance events on chain, address (EVM without regard to case) and operation; send-status events on status", () => {
    const msg = { operation: "deposit", caip2: "eip155:31337", address: "0xABCDEFabcdef0000000000000000000000000001" } as never;
    const balance = { type: "BALANCE_CONFIRMED_UPDATES", orgId: "o", msg } as EmulatorEvent & { type: "BALANCE_CONFIRMED_UPDATES" };
    const f = parseEventFilter("BALANCE_CONFIRMED_UPDATES", '{"caip2":"eip155:31337","address":["0xabcdefABCDEF0000000000000000000000000001"],"operation":"deposit"}', FIELD);
    expect(filterAccepts(f, filterFields(balance, "o"))).toBe(true);
    expect(filterAccepts(f, filterFields({ ...balance, msg: { ...balance.msg, operation: "withdraw" } }, "o"))).toBe(false);
    expect(filterAccepts(f, filterFields({ ...balance, msg: { ...balance.msg, caip2: "eip155:1" } }, "o"))).toBe(false);
    const send = { type: "SEND_TRANSACTION_STATUS_UPDATES", orgId: "o", msg: { caip2: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", status: "FAILED" } } as never as EmulatorEvent & { type: "SEND_TRANSACTION_STATUS_UPDATES" };
    const g = parseEventFilter("SEND_TRANSACTION_STATUS_UPDATES", '{"status":["INCLUDED","FAILED"]}', FIELD);
    expect(filterAccepts(g, filterFields(send, "o"))).toBe(true);
    expect(filterAccepts(g, filterFields({ ...send, msg: { ...send.msg, status: "BROADCASTING" } }, "o"))).toBe(false);
  });

  it("a Solana cluster named by alias, full genesis hash or canonical id matches the same events (caip2.ts normalizes the filter side; events carry the canonical id)", () => {
    const MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
    const balance = (caip2: string) =>
      ({ type: "BALANCE_FINALIZED_UPDATES", orgId: "o", msg: { operation: "deposit", caip2, address: "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96" } }) as never as EmulatorEvent & { type: "BALANCE_FINALIZED_UPDATES" };
    for (const written of ["solana:mainnet", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d", MAINNET]) {
      const f = parseEventFilter("BALANCE_FINALIZED_UPDATES", JSON.stringify({ caip2: written }), FIELD);
      expect(filterAccepts(f, filterFields(balance(MAINNET), "o")), written).toBe(true);
      expect(filterAccepts(f, filterFields(balance("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"), "o")), written).toBe(false);
    }
    const devnet = parseEventFilter("SEND_TRANSACTION_STATUS_UPDATES", '{"caip2":["solana:devnet","eip155:8453"]}', FIELD);
    const send = (caip2: string) => filterFields({ type: "SEND_TRANSACTION_STATUS_UPDATES", orgId: "o", msg: { caip2, status: "INCLUDED" } } as never, "o");
    expect(filterAccepts(devnet, send("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"))).toBe(true);
    expect(filterAccepts(devnet, send("eip155:8453"))).toBe(true);
    expect(filterAccepts(devnet, send(MAINNET))).toBe(false);
  });

  it("refuses what it cannot apply, as a 400 naming the field and saying why", () => {
    const cases: [Parameters<typeof parseEventFilter>[0], string, RegExp][] = [
      ["ACTIVITY_UPDATES", "{nope", /must be a JSON object/],
      ["ACTIVITY_UPDATES", '["ACTIVITY_TYPE_CREATE_WALLET"]', /must be a JSON object/],
      ["ACTIVITY_UPDATES", "null", /must be a JSON object/],
      ["ACTIVITY_UPDATES", '{"activityType":["ACTIVITY_TYPE_CREATE_WALLET"]}', /cannot be filtered on "activityType"; filter on type, status, organizationId/],
      ["ACTIVITY_UPDATES", '{"constructor":"x"}', /cannot be filtered on "constructor"/],
      ["ACTIVITY_UPDATES", '{"type":["CREATE_WALLET"]}', /type "CREATE_WALLET": expected an activity type/],
      ["ACTIVITY_UPDATES", '{"status":["ACTIVITY_STATUS_DONE"]}', /status "ACTIVITY_STATUS_DONE": expected one of ACTIVITY_STATUS_CREATED/],
      ["ACTIVITY_UPDATES", '{"type":[]}', /type needs at least one value/],
      ["ACTIVITY_UPDATES", '{"type":[1]}', /type takes a non-empty string/],
      ["ACTIVITY_UPDATES", '{"organizationId":""}', /organizationId takes a non-empty string/],
      ["ACTIVITY_UPDATES", JSON.stringify({ type: Array(101).fill("ACTIVITY_TYPE_CREATE_WALLET") }), /at most 100 values/],
      ["BALANCE_FINALIZED_UPDATES", '{"status":"INCLUDED"}', /cannot be filtered on "status"/],
      ["BALANCE_CONFIRMED_UPDATES", '{"caip2":"mainnet"}', /expected a CAIP-2 chain id/],
      ["BALANCE_CONFIRMED_UPDATES", '{"caip2":"eip155:0x1"}', /caip2 "eip155:0x1": expected a CAIP-2 chain id .*decimal chain id/],
      ["SEND_TRANSACTION_STATUS_UPDATES", '{"caip2":"cosmos:cosmoshub-4"}', /unsupported caip2 namespace cosmos/],
      ["BALANCE_CONFIRMED_UPDATES", '{"operation":"transfer"}', /expected one of deposit, withdraw/],
      ["SEND_TRANSACTION_STATUS_UPDATES", '{"status":"COMPLETED"}', /expected one of BROADCASTING, INCLUDED, FAILED/],
    ];
    for (const [type, json, message] of cases) {
      const e = refusal(type, json);
      expect(e, json).toBeInstanceOf(TurnkeyError);
      expect(e.httpStatus, json).toBe(400);
      expect(e.message, json).toMatch(message);
      expect(JSON.stringify(e.details), json).toContain(FIELD);
    }
  });

  it("a stored filter this version would refuse (kept by an older one) filters nothing", () => {
    expect(storedFilter("ACTIVITY_UPDATES", '{"anything":1}')).toBeNull();
    expect(storedFilter("ACTIVITY_UPDATES", '{"status":"ACTIVITY_STATUS_FAILED"}')).toEqual(new Map([["status", ["ACTIVITY_STATUS_FAILED"]]]));
  });
});
