/** create_invitations / delete_invitation through @turnkey/sdk-server; the invitation emails in the mailbox. */
import { describe, expect, it } from "vitest";
import { newP256KeyPair, rawPost, sdkClient, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();

const mailTo = async (contact: string): Promise<Record<string, unknown>[]> =>
  (await fetch(`${emu.url}/emulator/v1/mailbox?contact=${encodeURIComponent(contact)}`)).json() as Promise<Record<string, unknown>[]>;

const invitation = (over: Record<string, unknown> = {}) => ({
  receiverUserName: "Dana",
  receiverUserEmail: "dana@example.com",
  receiverUserTags: [] as string[],
  accessType: "ACCESS_TYPE_ALL" as const,
  senderUserId: emu.info.rootUserId,
  ...over,
});

describe("create_invitations / delete_invitation", () => {
  it("records invitations, mails each receiver its invitation id, and deletes one", async () => {
    const c = sdkClient(emu);
    const { userTagId } = await c.createUserTag({ userTagName: "invitees", userIds: [] });
    const { invitationIds } = await c.createInvitations({
      invitations: [invitation({ receiverUserTags: [userTagId] }), invitation({ receiverUserName: "Eli", receiverUserEmail: "eli@example.com", accessType: "ACCESS_TYPE_API" })],
    });
    expect(invitationIds).toHaveLength(2);
    expect(new Set(invitationIds).size).toBe(2);

    const dana = await mailTo("dana@example.com");
    expect(dana).toHaveLength(1);
    expect(dana[0]).toMatchObject({ channel: "email", kind: "invitation", invitationId: invitationIds[0], senderUserId: emu.info.rootUserId, organizationId: emu.info.organizationId });
    expect((await mailTo("eli@example.com"))[0]).toMatchObject({ invitationId: invitationIds[1], accessType: "ACCESS_TYPE_API" });
    // The emails are delivery events of the organization.
    expect((await c.listEmailEvents({ email: "eli@example.com" })).emailEvents).toHaveLength(1);

    expect(await c.deleteInvitation({ invitationId: invitationIds[0]! })).toMatchObject({ invitationId: invitationIds[0] });
    await expect(c.deleteInvitation({ invitationId: invitationIds[0]! })).rejects.toThrow(/invitation not found/);
    expect((await c.deleteInvitation({ invitationId: invitationIds[1]! })).invitationId).toBe(invitationIds[1]);
  });

  it("refuses bad input naming the field, writing nothing", async () => {
    const c = sdkClient(emu);
    const cases: [Record<string, unknown>[], RegExp][] = [
      [[], /invitations must not be empty/],
      [[invitation({ receiverUserEmail: "not-an-email" })], /invalid email address/],
      [[invitation({ receiverUserName: " " })], /receiverUserName must not be empty/],
      [[invitation({ receiverUserTags: ["00000000-0000-4000-8000-000000000000"] })], /user tag not found/],
      [[invitation({ senderUserId: "nobody" })], /invalid user UUID/],
      [[invitation(), invitation({ senderUserId: "00000000-0000-4000-8000-000000000000" })], /user not found/],
    ];
    for (const [invitations, message] of cases) {
      const before = storeCounts(emu);
      const mails = (await mailTo("dana@example.com")).length;
      await expect(c.createInvitations({ invitations } as never)).rejects.toThrow(message);
      expect(storeCounts(emu)).toEqual(before);
      expect(await mailTo("dana@example.com")).toHaveLength(mails);
    }
    // The field is named on the wire.
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_INVITATIONS",
      timestampMs: String(Date.now()),
      organizationId: emu.info.organizationId,
      parameters: { invitations: [invitation(), invitation({ receiverUserEmail: "nope" })] },
    });
    const r = await rawPost(emu, "/public/v1/submit/create_invitations", body);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json.details)).toContain("parameters.invitations[1].receiverUserEmail");
    await expect(c.deleteInvitation({ invitationId: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow(/invitation not found/);
  });

  it("holds at most 100 invitations per organization", async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "invitations sub",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const s = sdkClient(emu, key, sub.subOrganizationId);
    const senderUserId = (await s.getWhoami({})).userId;
    const many = (n: number, from: number) => Array.from({ length: n }, (_, i) => invitation({ senderUserId, receiverUserEmail: `r${from + i}@example.com` }));
    await s.createInvitations({ invitations: many(99, 0) });
    await expect(s.createInvitations({ invitations: many(2, 99) })).rejects.toThrow(/maximum invitations \(100\)/);
    const { invitationIds } = await s.createInvitations({ invitations: many(1, 99) });
    await expect(s.createInvitations({ invitations: many(1, 100) })).rejects.toThrow(/maximum invitations/);
    await s.deleteInvitation({ invitationId: invitationIds[0]! });
    const last = await s.createInvitations({ invitations: many(1, 100) });
    // A sub-organization's invitation is unknown to the parent.
    await expect(sdkClient(emu).deleteInvitation({ invitationId: last.invitationIds[0]! })).rejects.toThrow(/invitation not found/);
    expect((await s.deleteInvitation({ invitationId: last.invitationIds[0]! })).invitationId).toBe(last.invitationIds[0]);
  });
});
