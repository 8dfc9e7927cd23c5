import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "../../core/store/index.js";
import { openStore } from "../../families.js";
import { WebhookEndpoints } from "./endpoints.js";
import { activeEndpoints, orgRouting } from "./routing.js";
import { LEGACY_WEBHOOK_FEATURE } from "./legacy-feature.js";

const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function setup() {
  const store = openStore();
  stores.push(store);
  const org = (id: string, parentId: string | null = null) =>
    store.organizations.insert({ id, name: id, parentId, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: 1, updatedAt: 1 });
  org("parent");
  org("child", "parent");
  const endpoints = new WebhookEndpoints(store.db);
  const add = (id: string, orgId: string, createdAt: number) =>
    endpoints.insert({ id, orgId, url: `https://example.com/${id}`, name: id, isActive: true, subscriptions: [{ eventType: "ACTIVITY_UPDATES", isActive: true }], createdAt, updatedAt: createdAt });
  const ids = (orgIds: string[]) => activeEndpoints(store, orgIds).map((e) => e.id);
  return { store, endpoints, add, ids };
}

describe("webhook routing kept per database", () => {
  it("answers what the tables hold after every kind of change (endpoint added, paused, deleted; feature set; organization deleted)", () => {
    const { store, endpoints, add, ids } = setup();
    expect(ids(["child", "parent"])).toEqual([]);
    expect(orgRouting(store, "child")).toEqual({ id: "child", parentId: "parent", legacy: null });
    expect(orgRouting(store, "nobody")).toBeUndefined();
    add("p1", "parent", 2);
    add("c1", "child", 3);
    expect(ids(["child", "parent"])).toEqual(["p1", "c1"]);
    expect(ids(["parent"])).toEqual(["p1"]);
    endpoints.update("p1", { isActive: false }, 4);
    expect(ids(["child", "parent"])).toEqual(["c1"]);
    store.organizations.update("child", { features: [{ name: LEGACY_WEBHOOK_FEATURE, value: "https://example.com/legacy" }] }, 5);
    expect(orgRouting(store, "child")).toEqual({ id: "child", parentId: "parent", legacy: "https://example.com/legacy" });
    // The child organization goes, and its endpoint with it (a foreign-key cascade).
    store.db.prepare("DELETE FROM organizations WHERE id = 'child'").run();
    expect(orgRouting(store, "child")).toBeUndefined();
    expect(ids(["child", "parent"])).toEqual([]);
  });

  it("keeps nothing read inside a transaction that changed an endpoint and then rolled back", () => {
    const { store, add, ids } = setup();
    expect(ids(["parent"])).toEqual([]);
    expect(() =>
      store.tx(() => {
        add("p1", "parent", 2);
        expect(ids(["parent"])).toEqual(["p1"]); // what the transaction itself sees
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    expect(ids(["parent"])).toEqual([]);
  });

  it("reuses its answer while nothing changes, and starts afresh on the database a reset puts in place", () => {
    const { store, add, ids } = setup();
    add("p1", "parent", 2);
    const first = activeEndpoints(store, ["parent"]);
    expect(activeEndpoints(store, ["parent"])).toBe(first);
    store.clear();
    expect(activeEndpoints(store, ["parent"])).toEqual([]);
    expect(ids(["parent"])).toEqual([]);
  });
});
