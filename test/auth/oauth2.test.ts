/**
 * OAuth2-only providers (X, Discord): credentials, the emulated provider's authorization
 * code with PKCE, oauth2_authenticate, and a login with the resulting id_token.
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { newP256KeyPair, sdkClient, storeCounts } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const emu = useTestEmulator();

const nonceOf = (publicKey: string) => bytesToHex(sha256(utf8ToBytes(publicKey)));
const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

async function authorize(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await fetch(`${emu.url}/emulator/v1/oauth2/authorize`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

describe("OAuth2 credentials and oauth2_authenticate", () => {
  it("manages credentials", async () => {
    const c = sdkClient(emu);
    const { oauth2CredentialId } = await c.createOauth2Credential({ provider: "OAUTH2_PROVIDER_DISCORD", clientId: "discord-1", encryptedClientSecret: "ct" });
    expect((await c.getOauth2Credential({ oauth2CredentialId })).oauth2Credential).toMatchObject({ provider: "OAUTH2_PROVIDER_DISCORD", clientId: "discord-1" });
    await c.updateOauth2Credential({ oauth2CredentialId, provider: "OAUTH2_PROVIDER_DISCORD", clientId: "discord-2", encryptedClientSecret: "ct2" });
    expect((await c.listOauth2Credentials({})).oauth2Credentials.map((x) => x.clientId)).toContain("discord-2");
    await c.deleteOauth2Credential({ oauth2CredentialId });
    await expect(c.getOauth2Credential({ oauth2CredentialId })).rejects.toThrow(/not found/);
  });

  it("trades a PKCE-bound code for an id_token that logs in to a sub-organization with that provider", async () => {
    const c = sdkClient(emu);
    const clientId = "x-client-1";
    const { oauth2CredentialId } = await c.createOauth2Credential({ provider: "OAUTH2_PROVIDER_X", clientId, encryptedClientSecret: "ct" });
    const verifier = "verifier-0123456789-0123456789-0123456789-01";
    const redirectUri = "https://app.example/oauth/callback";
    const code = await authorize({ provider: "OAUTH2_PROVIDER_X", clientId, redirectUri, codeChallenge: challengeOf(verifier), subject: "123456789", state: "s1" });
    expect(code.status).toBe(200);
    expect(code.json.redirectUrl).toBe(`${redirectUri}?code=${code.json.code}&state=s1`);

    const session = newP256KeyPair();
    const before = storeCounts(emu);
    await expect(c.oauth2Authenticate({ oauth2CredentialId, authCode: code.json.code, redirectUri, codeVerifier: "wrong-verifier", nonce: nonceOf(session.publicKey) })).rejects.toThrow(/code_verifier/);
    await expect(c.oauth2Authenticate({ oauth2CredentialId, authCode: code.json.code, redirectUri: "https://evil.example/cb", codeVerifier: verifier, nonce: nonceOf(session.publicKey) })).rejects.toThrow(/redirect_uri/);
    expect(storeCounts(emu)).toEqual(before);

    const { oidcToken } = await c.oauth2Authenticate({ oauth2CredentialId, authCode: code.json.code, redirectUri, codeVerifier: verifier, nonce: nonceOf(session.publicKey) });
    const claims = JSON.parse(Buffer.from(oidcToken.split(".")[1]!, "base64url").toString());
    expect(claims).toMatchObject({ sub: "x:123456789", aud: clientId, nonce: nonceOf(session.publicKey) });
    await expect(c.oauth2Authenticate({ oauth2CredentialId, authCode: code.json.code, redirectUri, codeVerifier: verifier, nonce: nonceOf(session.publicKey) })).rejects.toThrow(/already used/);

    // The token registers an OAuth provider on a new sub-org's root user, then logs in there.
    const sub = await c.createSubOrganization({
      subOrganizationName: "x-user",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "x user", apiKeys: [], authenticators: [], oauthProviders: [{ providerName: "X", oidcToken }] }],
    });
    const subOrgId = sub.subOrganizationId;
    const { session: jwt } = await sdkClient(emu, undefined, subOrgId).oauthLogin({ organizationId: subOrgId, oidcToken, publicKey: session.publicKey });
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64").toString());
    expect(payload).toMatchObject({ organization_id: subOrgId, public_key: session.publicKey });
    expect((await sdkClient(emu, session, subOrgId).getWhoami({})).organizationId).toBe(subOrgId);
  });

  it("refuses bad provider requests and unknown credentials", async () => {
    expect((await authorize({ provider: "OAUTH2_PROVIDER_MYSPACE", clientId: "a", redirectUri: "https://a/b", codeChallenge: "c", subject: "1" })).status).toBe(400);
    expect((await authorize({ provider: "OAUTH2_PROVIDER_X", clientId: "a", redirectUri: "https://a/b", codeChallenge: "c", subject: "1", codeChallengeMethod: "plain" })).status).toBe(400);
    await expect(sdkClient(emu).oauth2Authenticate({ oauth2CredentialId: "11111111-2222-4333-8444-555555555555", authCode: "x", redirectUri: "https://a/b", codeVerifier: "v", nonce: "n" })).rejects.toThrow(/oauth2 credential not found/);
  });
});
