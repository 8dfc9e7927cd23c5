/**
 * Subscription filters applied to deliveries (the emulator's reading of filtersJson,
 * docs/webhooks.md), through @turnkey/sdk-server with receivers on 127.0.0.1: a filtered
 * endpoint receives only the events its filter accepts, an unfiltered one receives them all,
 * and what a filter turns away is not queued at all.
 */
import { afterAll, describe, expect, it } from "vitest";
import { newP256KeyPair, sdkClient } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { Receiver } from "./receiver.js";
import { deliveries, verifyReceived } from "./support.js";

const emu = useTestEmulator();
const hooks: Receiver[] = [];

afterAll(async () => {
  for (const h of hooks) await h.stop();
});

describe("webhook subscription filters", () => {
  it("a filtered endpoint hears only what its filter accepts (type and status; a parent picking one sub-organization); the unfiltered one hears everything", async () => {
    const [all, wallets, subOnly] = await Promise.all([Receiver.start(), Receiver.start(), Receiver.start()]);
    hooks.push(all, wallets, subOnly);
    const subKey = newP256KeyPair();
    const parent = sdkClient(emu);
    const { subOrganizationId } = await parent.createSubOrganization({
      subOrganizationName: "filtered sub",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "sub-root", apiKeys: [{ apiKeyName: "k", publicKey: subKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const sub = sdkClient(emu, subKey, subOrganizationId);
    const walletsFilter = JSON.stringify({ type: ["ACTIVITY_TYPE_CREATE_WALLET"], status: "ACTIVITY_STATUS_COMPLETED" });
    await parent.createWebhookEndpoint({ url: all.url, name: "all", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
    const w = await parent.createWebhookEndpoint({ url: wallets.url, name: "wallets", subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: walletsFilter }] });
    expect(w.webhookEndpoint.subscriptions).toEqual([{ eventType: "ACTIVITY_UPDATES", filtersJson: walletsFilter, isActive: true }]);
    const s = await parent.createWebhookEndpoint({ url: subOnly.url, name: "sub only", subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: JSON.stringify({ organizationId: [subOrganizationId] }) }] });

    const inParent = await parent.createWallet({ walletName: "parent wallet", accounts: [] });
    const tag = await parent.createUserTag({ userTagName: "filtered-tag", userIds: [] });
    const inSub = await sub.createWallet({ walletName: "sub wallet", accounts: [] });
    const subTag = await sub.createUserTag({ userTagName: "sub-tag", userIds: [] });
    const ids = [inParent, tag, inSub, subTag].map((r) => r.activity.id);

    // The unfiltered endpoint hears the four activities; once it has, and the outbox is idle, the others have heard theirs.
    await all.count(ids.length + 2); // + the creations of the two later endpoints
    await emu.runtime.families.webhooks.dispatcher.idle();
    expect(ids.every((id) => all.forActivity(id).length === 1)).toBe(true);
    expect(wallets.received.map((r) => r.json.id)).toEqual([inParent.activity.id, inSub.activity.id]);
    expect(subOnly.received.map((r) => r.json.id)).toEqual([inSub.activity.id, subTag.activity.id]);
    for (const r of [...wallets.received, ...subOnly.received]) expect((await verifyReceived(emu, r)).ok).toBe(true);
    // Turned away at routing: no outbox row for the filtered endpoints beyond what they heard.
    expect((await deliveries(emu, { endpointId: w.endpointId })).map((d) => d.payload.id)).toEqual([inParent.activity.id, inSub.activity.id]);
    expect((await deliveries(emu, { endpointId: s.endpointId })).map((d) => d.payload.id)).toEqual([inSub.activity.id, subTag.activity.id]);
  });
});
