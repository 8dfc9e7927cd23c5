import { describe, expect, it } from "vitest";
import { identityKeys, ValueMap } from "./mapping.js";

describe("ValueMap", () => {
  it("pairs the values two answers hold in the same place, never times, numbers, enum values or equal values", () => {
    const m = new ValueMap();
    m.learn(
      { activity: { id: "rec-activity-1", status: "ACTIVITY_STATUS_COMPLETED", createdAt: { seconds: "100", nanos: "0" }, organizationId: "org", result: { createWalletResult: { walletId: "rec-wallet", addresses: ["0xAbC0000000000000000000000000000000000001"] } } } },
      { activity: { id: "rep-activity-1", status: "ACTIVITY_STATUS_FAILED", createdAt: { seconds: "200", nanos: "5" }, organizationId: "org", result: { createWalletResult: { walletId: "rep-wallet", addresses: ["0xDEF0000000000000000000000000000000000002"] } } } },
    );
    expect(m.get("rec-activity-1")).toBe("rep-activity-1");
    expect(m.get("rec-wallet")).toBe("rep-wallet");
    expect(m.get("ACTIVITY_STATUS_COMPLETED")).toBeUndefined();
    expect(m.get("100")).toBeUndefined();
    expect(m.get("org")).toBeUndefined();
    // An EVM address is also mapped in lower case, as policies write it.
    expect(m.get("0xabc0000000000000000000000000000000000001")).toBe("0xdef0000000000000000000000000000000000002");
  });

  it("sends the replay's values: whole strings, and long ones inside others (a policy condition)", () => {
    const m = new ValueMap();
    m.set("11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222");
    m.set("short", "other");
    expect(m.apply({ walletId: "11111111-1111-4111-8111-111111111111", condition: "wallet.id == '11111111-1111-4111-8111-111111111111'", name: "short", note: "a short note" })).toEqual({
      walletId: "22222222-2222-4222-8222-222222222222",
      condition: "wallet.id == '22222222-2222-4222-8222-222222222222'",
      name: "other",
      note: "a short note",
    });
  });

  it("keeps the first pairing of a value", () => {
    const m = new ValueMap();
    m.set("a-recorded-value", "first");
    m.set("a-recorded-value", "second");
    expect(m.get("a-recorded-value")).toBe("first");
  });

  it("pairs a list's elements by identity in any order, the rest by agreement", () => {
    const m = new ValueMap();
    m.set("rec-1", "rep-1");
    const recorded = [{ walletId: "rec-1", walletName: "a" }, { walletId: "rec-2", walletName: "b" }];
    const replayed = [{ walletId: "rep-2", walletName: "b" }, { walletId: "rep-1", walletName: "a" }];
    expect(m.align(recorded, replayed)).toEqual({ pairs: [[0, 1], [1, 0]], byIdentity: true });
    // Known identities only: the wallet nothing maps yet stays unpaired.
    expect(m.align(recorded, replayed, true)).toEqual({ pairs: [[0, 1]], byIdentity: true });
    m.learn(recorded, replayed);
    expect(m.get("rec-2")).toBe("rep-2");
  });

  it("pairs objects without an identity by agreement, other lists by position when as long", () => {
    const m = new ValueMap();
    expect(m.align([{ path: "m/0", addressFormat: "A" }, { path: "m/1", addressFormat: "A" }], [{ path: "m/1", addressFormat: "A" }, { path: "m/0", addressFormat: "A" }]).pairs).toEqual([[0, 1], [1, 0]]);
    expect(m.align(["x", "y"], ["p", "q"]).pairs).toEqual([[0, 0], [1, 1]]);
    expect(m.align(["x", "y"], ["p"]).pairs).toEqual([]);
  });
});

describe("identityKeys", () => {
  it("are ids, fingerprints and addresses unique in the list, not the organization every element shares", () => {
    expect(identityKeys([{ id: "1", organizationId: "o", fingerprint: "f1", type: "T" }, { id: "2", organizationId: "o", fingerprint: "f2", type: "T" }])).toEqual(["id", "fingerprint"]);
    expect(identityKeys([{ organizationId: "o" }])).toEqual([]);
    expect(identityKeys([{ walletId: "w", address: "a1" }, { walletId: "w", address: "a2" }])).toEqual(["address"]);
  });
});
