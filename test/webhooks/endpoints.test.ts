/**
 * create / update / delete / list webhook endpoints through @turnkey/sdk-server, and every
 * refusal: the field named, the documented status, nothing written.
 */
import { describe, expect, it } from "vitest";
import { rawPost, sdkClient, storeCounts, submitBody } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { violatedField } from "../control/support.js";
import { control } from "../control/support.js";

const emu = useTestEmulator();

const create = (parameters: Record<string, unknown>) => rawPost(emu, "/public/v1/submit/create_webhook_endpoint", submitBody(emu, "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT", parameters));
const update = (parameters: Record<string, unknown>) => rawPost(emu, "/public/v1/submit/update_webhook_endpoint", submitBody(emu, "ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT", parameters));

describe("webhook endpoints", () => {
  it("create, list, update (url, name, pause) and delete", async () => {
    const c = sdkClient(emu);
    const created = await c.createWebhookEndpoint({
      url: "https://hooks.example.com/turnkey",
      name: "primary",
            // Inactive subscriptions: nothing is ever sent to the example host.
      subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: '{"type":["ACTIVITY_TYPE_CREATE_WALLET"]}', isActive: false }, { eventType: "BALANCE_CONFIRMED_UPDATES", isActive: false }],
    });
    expect(created.activity.type).toBe("ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT");
    expect(created.webhookEndpoint).toEqual({
      endpointId: created.endpointId,
      organizationId: emu.info.organizationId,
      url: "https://hooks.example.com/turnkey",
      name: "primary",
      isActive: true,
      subscriptions: [
        { eventType: "ACTIVITY_UPDATES", filtersJson: '{"type":["ACTIVITY_TYPE_CREATE_WALLET"]}', isActive: false },
        { eventType: "BALANCE_CONFIRMED_UPDATES", isActive: false },
      ],
    });
    const local = await c.createWebhookEndpoint({ url: "http://localhost:9999/hook", name: "local" });
    expect(local.webhookEndpoint.subscriptions).toEqual([]);
    expect((await c.listWebhookEndpoints({})).webhookEndpoints.map((e) => e.endpointId)).toEqual([created.endpointId, local.endpointId]);

    const updated = await c.updateWebhookEndpoint({ endpointId: created.endpointId, url: "https://hooks.example.com/v2", name: "renamed", isActive: false });
    expect(updated.webhookEndpoint).toMatchObject({ endpointId: created.endpointId, url: "https://hooks.example.com/v2", name: "renamed", isActive: false });
    expect(updated.webhookEndpoint.subscriptions).toHaveLength(2);
    const [listed] = (await c.listWebhookEndpoints({})).webhookEndpoints;
    expect(listed).toEqual(updated.webhookEndpoint);

    const deleted = await c.deleteWebhookEndpoint({ endpointId: created.endpointId });
    expect(deleted.endpointId).toBe(created.endpointId);
    await c.deleteWebhookEndpoint({ endpointId: local.endpointId });
    expect((await c.listWebhookEndpoints({})).webhookEndpoints).toEqual([]);
  });

  it.each([
    ["http://hooks.example.com/x", "parameters.url", /only https/],
    ["https://user:pw@hooks.example.com/x", "parameters.url", /userinfo/],
    ["ftp://hooks.example.com/x", "parameters.url", /scheme ftp/],
    ["not a url", "parameters.url", /not an absolute URL/],
    ["https://10.1.2.3/x", "parameters.url", /not a public destination/],
    ["https://192.168.1.10/x", "parameters.url", /not a public destination/],
    ["https://169.254.169.254/latest/meta-data", "parameters.url", /not a public destination/],
    ["https://metadata.google.internal/x", "parameters.url", /not a public destination/],
    ["https://[fd00::1]/x", "parameters.url", /not a public destination/],
    ["https://intranet/x", "parameters.url", /not a public destination/],
  ])("refuses url %s naming %s, writing nothing", async (url, field, message) => {
    const before = storeCounts(emu);
    const r = await create({ url, name: "bad", subscriptions: [] });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(message);
    expect(violatedField(r.json)).toBe(field);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("refuses a bad name, an unknown or repeated event type and filtersJson that is not a filter (not an object, unknown field, bad value, empty list), naming the field", async () => {
    const before = storeCounts(emu);
    const cases: [Record<string, unknown>, string][] = [
      [{ url: "https://hooks.example.com", name: "  " }, "parameters.name"],
      [{ url: "https://hooks.example.com", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }, { eventType: "WALLET_UPDATES" }] }, "parameters.subscriptions[1].eventType"],
      [{ url: "https://hooks.example.com", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }, { eventType: "ACTIVITY_UPDATES" }] }, "parameters.subscriptions[1].eventType"],
      [{ url: "https://hooks.example.com", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: "{nope" }] }, "parameters.subscriptions[0].filtersJson"],
      [{ url: "https://hooks.example.com", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: "[1]" }] }, "parameters.subscriptions[0].filtersJson"],
      [{ url: "https://hooks.example.com", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }, { eventType: "BALANCE_CONFIRMED_UPDATES", filtersJson: '{"status":["INCLUDED"]}' }] }, "parameters.subscriptions[1].filtersJson"],
      [{ url: "https://hooks.example.com", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: '{"status":["ACTIVITY_STATUS_DONE"]}' }] }, "parameters.subscriptions[0].filtersJson"],
      [{ url: "https://hooks.example.com", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: '{"type":[]}' }] }, "parameters.subscriptions[0].filtersJson"],
    ];
    for (const [parameters, field] of cases) {
      const r = await create(parameters);
      expect(r.status, JSON.stringify(parameters)).toBe(400);
      expect(violatedField(r.json)).toBe(field);
    }
    expect(storeCounts(emu)).toEqual(before);
  });

  it("update and delete of an unknown endpoint answer 404; a malformed id 400; a bad new url 400, nothing written", async () => {
    const { endpointId } = await sdkClient(emu).createWebhookEndpoint({ url: "https://hooks.example.com/keep", name: "keep" });
    const before = storeCounts(emu);
    const unknown = await update({ endpointId: "00000000-0000-4000-8000-000000000000", name: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toMatch(/webhook endpoint not found/);
    const del = await rawPost(emu, "/public/v1/submit/delete_webhook_endpoint", submitBody(emu, "ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT", { endpointId: "00000000-0000-4000-8000-000000000000" }));
    expect(del.status).toBe(404);
    const malformed = await update({ endpointId: "nope" });
    expect(malformed.status).toBe(400);
    expect(violatedField(malformed.json)).toBe("parameters.endpointId");
    const badUrl = await update({ endpointId, url: "https://127.0.0.1.nip.io.internal/x" });
    expect(badUrl.status).toBe(400);
    expect(violatedField(badUrl.json)).toBe("parameters.url");
    expect(storeCounts(emu)).toEqual(before);
    expect((await sdkClient(emu).listWebhookEndpoints({})).webhookEndpoints.find((e) => e.endpointId === endpointId)?.url).toBe("https://hooks.example.com/keep");
    await sdkClient(emu).deleteWebhookEndpoint({ endpointId });
  });

  it("the deliveries control route refuses unknown filters and bad values as rpcStatus naming the field; reset clears the outbox", async () => {
    const bad = await control(emu, "GET", "/webhooks/deliveries?state=PENDING");
    expect(bad.status).toBe(400);
    expect(violatedField(bad.json)).toBe("state");
    const badStatus = await control(emu, "GET", "/webhooks/deliveries?status=SENT");
    expect(violatedField(badStatus.json)).toBe("status");
    const badLimit = await control(emu, "GET", "/webhooks/deliveries?limit=0");
    expect(violatedField(badLimit.json)).toBe("limit");

    await sdkClient(emu).createWebhookEndpoint({ url: "http://127.0.0.1:9/unreachable", name: "outbox filler", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
    await sdkClient(emu).createPrivateKeyTag({ privateKeyTagName: "fills the outbox", privateKeyIds: [] });
    expect((await control(emu, "GET", "/webhooks/deliveries")).json.deliveries.length).toBeGreaterThan(0);
    await control(emu, "POST", "/reset");
    expect((await control(emu, "GET", "/webhooks/deliveries")).json.deliveries).toEqual([]);
  });
});
