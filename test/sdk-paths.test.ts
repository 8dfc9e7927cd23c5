/**
 * Paths that SDK versions still in use call beyond the first document (now in the wider one), through the
 * official @turnkey/http client: create_api_only_users works as before; a path the emulator
 * does not know answers 404 naming it.
 */
import { describe, expect, it } from "vitest";
import { httpClient, newP256KeyPair, rawPost, sdkClient, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();

describe("retired paths", () => {
  it("create_api_only_users (as @turnkey/http and the examples' createUser send it) makes users whose keys work", async () => {
    const key = newP256KeyPair();
    const { userTagId } = await sdkClient(emu).createUserTag({ userTagName: "api-only", userIds: [] });
    const r = await httpClient(emu).createApiOnlyUsers({
      type: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
      timestampMs: String(Date.now()),
      organizationId: emu.info.organizationId,
      parameters: { apiOnlyUsers: [{ userName: "api only", userTags: [userTagId], apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey }] }] },
    });
    expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const userId = r.activity.result.createApiOnlyUsersResult!.userIds[0]!;
    const me = await sdkClient(emu, key).getWhoami({});
    expect(me).toMatchObject({ userId, username: "api only" });
    const { user } = await sdkClient(emu).getUser({ userId });
    expect(user.userTags).toEqual([userTagId]);
    expect(user.apiKeys[0]!.credential.type).toBe("CREDENTIAL_TYPE_API_KEY_P256");
  });

  it("refuses an unknown user tag naming the field, writing nothing", async () => {
    const before = storeCounts(emu);
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
      timestampMs: String(Date.now()),
      organizationId: emu.info.organizationId,
      parameters: { apiOnlyUsers: [{ userName: "x", userTags: ["00000000-0000-4000-8000-000000000000"], apiKeys: [] }] },
    });
    const r = await rawPost(emu, "/public/v1/submit/create_api_only_users", body);
    expect([r.status, r.json.code]).toEqual([400, 3]);
    expect(r.json.message).toMatch(/user tag not found/);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("answers a path it does not know with 404 naming it", async () => {
    const r = await rawPost(emu, "/public/v1/submit/create_frobnicator", JSON.stringify({ organizationId: emu.info.organizationId }));
    expect([r.status, r.json.code]).toEqual([404, 5]);
    expect(r.json.message).toContain("/public/v1/submit/create_frobnicator");
  });
});
