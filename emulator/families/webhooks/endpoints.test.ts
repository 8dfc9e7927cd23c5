import { describe, expect, it } from "vitest";
import { Store } from "../../core/store/index.js";
import { WebhookEndpoints, type Subscription } from "./endpoints.js";

describe("WebhookEndpoints.anySubscribedTo", () => {
  it("is true only for an active subscription of a listed type on an active endpoint", () => {
    const store = Store.open();
    try {
      store.db.prepare("INSERT INTO organizations (id, name, created_at, updated_at) VALUES ('org', 'org', 0, 0)").run();
      const endpoints = new WebhookEndpoints(store.db);
      let n = 0;
      const add = (isActive: boolean, subscriptions: Subscription[]) =>
        endpoints.insert({ id: `e${n++}`, orgId: "org", url: "https://example.test/hook", name: "e", isActive, subscriptions, createdAt: 0, updatedAt: 0 });
      const chain = ["BALANCE_CONFIRMED_UPDATES", "SEND_TRANSACTION_STATUS_UPDATES"] as const;
      expect(endpoints.anySubscribedTo(chain)).toBe(false);
      add(true, [{ eventType: "ACTIVITY_UPDATES", isActive: true }]);
      add(true, [{ eventType: "BALANCE_CONFIRMED_UPDATES", isActive: false, filtersJson: "{}" }]);
      add(false, [{ eventType: "SEND_TRANSACTION_STATUS_UPDATES", isActive: true }]);
      expect(endpoints.anySubscribedTo(chain)).toBe(false);
      expect(endpoints.anySubscribedTo(["ACTIVITY_UPDATES"])).toBe(true);
      add(true, [{ eventType: "ACTIVITY_UPDATES", isActive: false }, { eventType: "SEND_TRANSACTION_STATUS_UPDATES", isActive: true }]);
      expect(endpoints.anySubscribedTo(chain)).toBe(true);
      expect(endpoints.anySubscribedTo(["BALANCE_FINALIZED_UPDATES"])).toBe(false);
    } finally {
      store.close();
    }
  });
});
