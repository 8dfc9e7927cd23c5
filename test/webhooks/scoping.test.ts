/**
 * Who hears what (behaviour-facts §9.3), through @turnkey/sdk-server: a parent organization's
 * ACTIVITY_UPDATES endpoint also receives its sub-organizations' activity; a sub-organization's
 * endpoint only its own; balance and send-status subscriptions belong to the parent alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newP256KeyPair, sdkClient, storeCounts, type KeyPair } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { Receiver } from "./receiver.js";
import { deliveries, deliveriesOf, verifyReceived } from "./support.js";

const emu = useTestEmulator();
let parentHook: Receiver;
let subHook: Receiver;
let subKey: KeyPair;
let subOrgId: string;

beforeAll(async () => {
  parentHook = await Receiver.start();
  subHook = await Receiver.start();
  subKey = newP256KeyPair();
  const sub = await sdkClient(emu).createSubOrganization({
    subOrganizationName: "webhook sub",
    rootQuorumThreshold: 1,
    rootUsers: [{ userName: "sub-root", apiKeys: [{ apiKeyName: "k", publicKey: subKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
  });
  subOrgId = sub.subOrganizationId;
});
afterAll(async () => {
  await parentHook.stop();
  await subHook.stop();
});

const sub = () => sdkClient(emu, subKey, subOrgId);

describe("webhook scoping", () => {
  it("a parent endpoint receives a sub-organization's activity; the sub-organization's endpoint does not receive the parent's", async () => {
    await sdkClient(emu).createWebhookEndpoint({ url: parentHook.url, name: "parent", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
    const subEndpoint = await sub().createWebhookEndpoint({ url: subHook.url, name: "sub", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
    expect(subEndpoint.webhookEndpoint.organizationId).toBe(subOrgId);

    const inSub = await sub().createWallet({ walletName: "sub wallet", accounts: [] });
    const inParent = await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "parent only", privateKeyIds: [] });

    const subEvents = await deliveriesOf(emu, inSub.activity.id, (d) => d.length === 2 && d.every((x) => x.status === "DELIVERED"));
    expect(subEvents.map((d) => d.organizationId).sort()).toEqual([emu.info.organizationId, subOrgId].sort());
    const atParent = parentHook.forActivity(inSub.activity.id);
    expect(atParent).toHaveLength(1);
    expect(atParent[0]!.json).toMatchObject({ organizationId: subOrgId, type: "ACTIVITY_TYPE_CREATE_WALLET", status: "ACTIVITY_STATUS_COMPLETED" });
    // Routed to the parent's endpoint: X-Turnkey-Organization-Id is the parent's.
    expect(atParent[0]!.headers["x-turnkey-organization-id"]).toBe(emu.info.organizationId);
    expect((await verifyReceived(emu, atParent[0]!)).ok).toBe(true);
    expect(subHook.forActivity(inSub.activity.id)[0]!.headers["x-turnkey-organization-id"]).toBe(subOrgId);

    const parentEvents = await deliveriesOf(emu, inParent.activity.id, (d) => d.length === 1 && d[0]!.status === "DELIVERED");
    expect(parentEvents[0]!.organizationId).toBe(emu.info.organizationId);
    expect(subHook.forActivity(inParent.activity.id)).toEqual([]);
  });

  it.each(["BALANCE_CONFIRMED_UPDATES", "BALANCE_FINALIZED_UPDATES", "SEND_TRANSACTION_STATUS_UPDATES"])(
    "a sub-organization cannot subscribe to %s (PermissionDenied, nothing written); the parent can",
    async (eventType) => {
      const before = storeCounts(emu);
      const refused = await sub()
        .createWebhookEndpoint({ url: subHook.url, name: "balances", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }, { eventType }] })
        .then(() => undefined, (e: unknown) => e as { status?: number; code?: number; message: string });
      expect(refused).toBeDefined();
      expect(refused!.message).toMatch(/billing organization/);
      expect(refused!.code ?? (refused as unknown as { cause?: { code?: number } }).cause?.code).toBe(7);
      expect(storeCounts(emu)).toEqual(before);

      const ok = await sdkClient(emu).createWebhookEndpoint({ url: parentHook.url, name: `parent ${eventType}`, subscriptions: [{ eventType }] });
      expect(ok.webhookEndpoint.subscriptions).toEqual([{ eventType, isActive: true }]);
      await sdkClient(emu).deleteWebhookEndpoint({ endpointId: ok.endpointId });
    },
  );

  it("balance and send-status events of a sub-organization reach the parent's subscribed endpoints with the documented envelope", async () => {
    const hook = await Receiver.start();
    try {
      await sdkClient(emu).createWebhookEndpoint({ url: hook.url, name: "balances", subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }] });
      // What the chain code emits when a deposit to a sub-organization's address is confirmed (emulator/core/events.ts).
      const msg = {
        operation: "deposit" as const,
        caip2: "eip155:31337",
        txHash: `0x${"ab".repeat(32)}`,
        address: "0x0000000000000000000000000000000000000001",
        idempotencyKey: "k-1",
        asset: { symbol: "ETH", name: "Ether", decimals: 18, caip19: "eip155:31337/slip44:60", amount: "1000" },
        block: { number: 1, hash: `0x${"cd".repeat(32)}`, timestamp: 1_800_000_000 },
      };
      emu.runtime.events.emit({ type: "BALANCE_CONFIRMED_UPDATES", orgId: subOrgId, msg });
      emu.runtime.events.emit({ type: "BALANCE_FINALIZED_UPDATES", orgId: subOrgId, msg }); // nobody subscribed
      await hook.count(1);
      const [got] = hook.received.filter((r) => r.headers["x-turnkey-event-type"] === "BALANCE_CONFIRMED_UPDATES");
      expect(got!.json).toEqual({ type: "balances:confirmed", organizationId: subOrgId, parentOrganizationId: emu.info.organizationId, msg });
      expect(got!.headers["x-turnkey-organization-id"]).toBe(emu.info.organizationId);
      expect((await verifyReceived(emu, got!)).ok).toBe(true);
      // Nobody subscribed to BALANCE_FINALIZED_UPDATES: no outbox row was written for it.
      expect((await deliveries(emu)).filter((d) => d.payload?.type === "balances:finalized")).toEqual([]);
    } finally {
      await hook.stop();
    }
  });
});
