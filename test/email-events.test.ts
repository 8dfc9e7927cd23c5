/** list_email_events through @turnkey/sdk-server, over the emails OTP and email auth send. */
import { describe, expect, it } from "vitest";
import { newP256KeyPair, sdkClient } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();

describe("list_email_events", () => {
  it("reports one Delivery event per email sent to the address, newest first, paginated", async () => {
    const c = sdkClient(emu);
    const email = "events@example.com";
    const sent: string[] = [];
    for (let n = 0; n < 3; n++) sent.push((await c.initOtp({ otpType: "OTP_TYPE_EMAIL", contact: email, appName: "Events" } as never)).otpId);
    await c.initOtp({ otpType: "OTP_TYPE_EMAIL", contact: "someone-else@example.com", appName: "Events" } as never);

    const { emailEvents } = await c.listEmailEvents({ email: "EVENTS@example.com" });
    expect(emailEvents).toHaveLength(3);
    expect(emailEvents.every((e) => e.eventType === "Delivery" && e.toAddress === email && e.organizationId === emu.info.organizationId)).toBe(true);
    expect(new Set(emailEvents.map((e) => e.id)).size).toBe(3);
    const times = emailEvents.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const first = await c.listEmailEvents({ email, paginationOptions: { limit: "2" } });
    const rest = await c.listEmailEvents({ email, paginationOptions: { limit: "2", after: first.emailEvents[1]!.id } });
    expect([...first.emailEvents, ...rest.emailEvents].map((e) => e.id)).toEqual(emailEvents.map((e) => e.id));
    expect((await c.listEmailEvents({ email, eventType: "Bounce" })).emailEvents).toEqual([]);
  });

  it("is scoped to the organization that sent the emails", async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "events sub",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const events = await sdkClient(emu, key, sub.subOrganizationId).listEmailEvents({ email: "events@example.com" });
    expect(events.emailEvents).toEqual([]);
  });

  it("refuses a malformed address and an unknown cursor, naming the field", async () => {
    const c = sdkClient(emu);
    await expect(c.listEmailEvents({ email: "not-an-email" })).rejects.toThrow(/invalid email address/);
    await expect(c.listEmailEvents({ email: "events@example.com", paginationOptions: { after: "00000000-0000-4000-8000-000000000000" } })).rejects.toThrow(/cursor/);
  });
});
