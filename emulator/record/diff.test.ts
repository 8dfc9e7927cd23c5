import { describe, expect, it } from "vitest";
import { compareAnswers, comparable, maskMessage } from "./diff.js";

const activity = (status: string, result: Record<string, unknown> | null = { createWalletResult: { walletId: "w" } }, extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { activity: { id: "a", status, type: "ACTIVITY_TYPE_CREATE_WALLET", result, ...extra } },
});
const refusal = (status: number, code: number, message: string, turnkeyErrorCode?: string) => ({
  status,
  body: { code, message, details: turnkeyErrorCode ? [{ "@type": "type.googleapis.com/external.data.v1.TurnkeyErrorDetail", turnkeyErrorCode }] : [] },
});

describe("compareAnswers", () => {
  it("finds nothing between answers that differ only in values (ids, names, times)", () => {
    const a = { status: 200, body: { wallet: { walletId: "w-1", walletName: "a", createdAt: { seconds: "1", nanos: "0" }, exported: false } } };
    const b = { status: 200, body: { wallet: { walletId: "w-2", walletName: "b", createdAt: { seconds: "9", nanos: "5" }, exported: false } } };
    expect(compareAnswers(a, b)).toEqual([]);
  });

  it("reports a status alone when one side answered and the other refused", () => {
    expect(compareAnswers(activity("ACTIVITY_STATUS_COMPLETED"), refusal(403, 7, "request not authorized"))).toEqual([{ kind: "status", path: "(http status)", recorded: 200, replayed: 403 }]);
  });

  it("compares two refusals by code, masked message and turnkeyErrorCode", () => {
    const recorded = refusal(400, 3, "invalid wallet id 1a2b3c4d-0000-4000-8000-000000000000 (try 3)", "REQUEST_INVALID");
    expect(compareAnswers(recorded, refusal(400, 3, "invalid wallet id 99999999-0000-4000-8000-000000000000 (try 7)", "REQUEST_INVALID"))).toEqual([]);
    expect(compareAnswers(recorded, refusal(404, 5, "wallet not found", "NOT_FOUND"))).toEqual([
      { kind: "status", path: "(http status)", recorded: 400, replayed: 404 },
      { kind: "code", path: "code", recorded: 3, replayed: 5 },
      { kind: "message", path: "message", recorded: "invalid wallet id <id> (try <n>)", replayed: "wallet not found" },
      { kind: "turnkeyErrorCode", path: "details[].turnkeyErrorCode", recorded: "REQUEST_INVALID", replayed: "NOT_FOUND" },
    ]);
  });

  it("compares an activity's status, type and result member, then the rest of its shape", () => {
    const d = compareAnswers(activity("ACTIVITY_STATUS_COMPLETED"), activity("ACTIVITY_STATUS_CONSENSUS_NEEDED", null, { canApprove: true }));
    expect(d).toEqual([
      { kind: "activityStatus", path: "activity.status", recorded: "ACTIVITY_STATUS_COMPLETED", replayed: "ACTIVITY_STATUS_CONSENSUS_NEEDED" },
      { kind: "resultMember", path: "activity.result", recorded: ["createWalletResult"], replayed: [] },
      { kind: "type", path: "activity.result", recorded: "object", replayed: "null" },
      { kind: "extra", path: "activity.canApprove", recorded: undefined, replayed: "boolean" },
    ]);
  });

  it("takes a recorded PENDING the emulator finished at once as no difference", () => {
    expect(compareAnswers(activity("ACTIVITY_STATUS_PENDING", null), activity("ACTIVITY_STATUS_COMPLETED"))).toEqual([]);
  });

  it("reports enum values and fields one side lacks", () => {
    const d = compareAnswers({ status: 200, body: { account: { addressFormat: "ADDRESS_FORMAT_ETHEREUM", path: "m/0" } } }, { status: 200, body: { account: { addressFormat: "ADDRESS_FORMAT_SOLANA" } } });
    expect(d).toEqual([
      { kind: "enum", path: "account.addressFormat", recorded: ["ADDRESS_FORMAT_ETHEREUM"], replayed: ["ADDRESS_FORMAT_SOLANA"] },
      { kind: "missing", path: "account.path", recorded: "string", replayed: undefined },
    ]);
  });
});

describe("comparable", () => {
  it("keeps only the paired elements of a list that pairs by identity", () => {
    const align = (r: unknown[], p: unknown[]) => ({ pairs: r.length && p.length ? ([[0, 0]] as [number, number][]) : [], byIdentity: true });
    const [a, b] = comparable({ policies: [{ effect: "EFFECT_ALLOW" }, { effect: "EFFECT_DENY" }] }, { policies: [{ effect: "EFFECT_ALLOW" }] }, align);
    expect(a).toEqual({ policies: [{ effect: "EFFECT_ALLOW" }] });
    expect(b).toEqual({ policies: [{ effect: "EFFECT_ALLOW" }] });
  });
});

describe("maskMessage", () => {
  it("masks emails", () => {
    expect(maskMessage("no user with email 'alice.b@corp.example.com' (or bob@x.io)")).toBe("no user with email '<email>' (or <email>)");
  });

  it("masks ids, hex, base58, numbers and secrets", () => {
    expect(maskMessage("key 02abcdef0123456789abcdef of 0xAbC1 for So11111111111111111111111111111111111111112 at <redacted otpCode len=6 #2> after 30 s")).toBe("key <hex> of <hex> for <key> at <secret> after <n> s");
  });
});
