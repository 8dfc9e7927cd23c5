import { describe, expect, it } from "vitest";
import { rawPost, sdkClient, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

const emu = useTestEmulator();

const whoami = () => JSON.stringify({ organizationId: emu.info.organizationId });

describe("passkeys", () => {
  it("registers a passkey from its attestation and accepts its X-Stamp-Webauthn stamps", async () => {
    const passkey = new SoftwareAuthenticator();
    const c = sdkClient(emu);
    const { userIds } = await c.createUsers({ users: [{ userName: "pk-user", apiKeys: [], authenticators: [passkey.registration("laptop")], oauthProviders: [], userTags: [] }] });
    const { authenticators } = await c.getAuthenticators({ userId: userIds[0]! });
    expect(authenticators).toHaveLength(1);
    expect(authenticators[0]).toMatchObject({ credentialId: passkey.credentialId, authenticatorName: "laptop", credential: { type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" } });
    expect(authenticators[0]!.credential.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);

    const body = whoami();
    const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: { "X-Stamp-Webauthn": passkey.stamp(body) } });
    expect(r.status).toBe(200);
    expect(r.json.userId).toBe(userIds[0]);
  });

  it("rejects an assertion over another body, and an unknown credential", async () => {
    const passkey = new SoftwareAuthenticator();
    const { userIds } = await sdkClient(emu).createUsers({ users: [{ userName: "pk2", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    await sdkClient(emu).createAuthenticators({ userId: userIds[0]!, authenticators: [passkey.registration("key")] });
    const body = whoami();
    const other = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: { "X-Stamp-Webauthn": passkey.stamp(body + " ") } });
    expect(other.status).toBe(401);
    expect(other.json.message).toBe("could not verify WebAuthN signature");
    const stranger = new SoftwareAuthenticator();
    const unknown = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: { "X-Stamp-Webauthn": stranger.stamp(body) } });
    expect(unknown.status).toBe(401);
    expect(unknown.json.message).toBe("credential ID could not be found in organization or its parent organization");
  });

  it("refuses a registration whose challenge does not match, writing nothing", async () => {
    const reg = new SoftwareAuthenticator().registration("bad");
    const before = storeCounts(emu);
    await expect(sdkClient(emu).createAuthenticators({ userId: emu.info.rootUserId, authenticators: [{ ...reg, challenge: "AAAA" }] })).rejects.toThrow(/challenge/);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("deletes a passkey, after which its stamps are refused", async () => {
    const passkey = new SoftwareAuthenticator();
    const c = sdkClient(emu);
    const { authenticatorIds } = await c.createAuthenticators({ userId: emu.info.rootUserId, authenticators: [passkey.registration("temp")] });
    await c.deleteAuthenticators({ userId: emu.info.rootUserId, authenticatorIds });
    const body = whoami();
    const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: { "X-Stamp-Webauthn": passkey.stamp(body) } });
    expect(r.status).toBe(401);
  });
});
