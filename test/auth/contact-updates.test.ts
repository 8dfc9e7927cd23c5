/**
 * update_user_email / update_user_phone_number with an OTP verification token (what
 * @turnkey/core's updateUserEmail sends): the new contact becomes verified, as the parent's
 * list_verified_suborgs then shows; a token for another contact, or spent, is refused.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { newP256KeyPair, sdkClient, type KeyPair } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { info, lastMail, type Info } from "./support.js";

const emu = useTestEmulator();
let i: Info;
let sub: { id: string; userId: string; key: KeyPair };

beforeAll(async () => {
  i = await info(emu);
  const key = newP256KeyPair();
  const r = await sdkClient(emu).createSubOrganization({
    subOrganizationName: "contact updates",
    rootQuorumThreshold: 1,
    rootUsers: [{ userName: "u", userEmail: "old@example.com", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
  });
  sub = { id: r.subOrganizationId, userId: r.rootUserIds![0]!, key };
});

/** init_otp -> mailbox -> verify_otp in the sub-org, as its own user; returns the verification token. */
async function verifiedToken(otpType: "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS", contact: string): Promise<string> {
  const c = sdkClient(emu, sub.key, sub.id);
  const { otpId, otpEncryptionTargetBundle } = await c.initOtp({ otpType, contact, appName: "Contacts" } as never);
  const code = (await lastMail(emu, contact)).otpCode!;
  const bundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, generateP256KeyPair().publicKey, i.tlsFetcherPublicKey);
  return (await c.verifyOtp({ otpId, encryptedOtpBundle: bundle })).verificationToken;
}

describe("contact updates with a verification token", () => {
  it("verifies the new email address; the parent finds the sub-org among verified ones", async () => {
    const c = sdkClient(emu, sub.key, sub.id);
    const before = await sdkClient(emu).getVerifiedSubOrgIds({ filterType: "EMAIL", filterValue: "new@example.com" });
    expect(before.organizationIds).toEqual([]);
    const token = await verifiedToken("OTP_TYPE_EMAIL", "new@example.com");
    expect((await c.updateUserEmail({ userId: sub.userId, userEmail: "new@example.com", verificationToken: token })).userId).toBe(sub.userId);
    const after = await sdkClient(emu).getVerifiedSubOrgIds({ filterType: "EMAIL", filterValue: "new@example.com" });
    expect(after.organizationIds).toEqual([sub.id]);
    // Spent: the same token cannot verify again.
    await expect(c.updateUserEmail({ userId: sub.userId, userEmail: "new@example.com", verificationToken: token })).rejects.toThrow(/already been used/);
  });

  it("refuses a token issued for another address and writes nothing", async () => {
    const c = sdkClient(emu, sub.key, sub.id);
    const token = await verifiedToken("OTP_TYPE_EMAIL", "other@example.com");
    await expect(c.updateUserEmail({ userId: sub.userId, userEmail: "third@example.com", verificationToken: token })).rejects.toThrow(/another email address/);
    expect((await c.getUser({ userId: sub.userId })).user.userEmail).toBe("new@example.com");
  });

  it("verifies a new phone number the same way", async () => {
    const c = sdkClient(emu, sub.key, sub.id);
    const token = await verifiedToken("OTP_TYPE_SMS", "+14155550123");
    await c.updateUserPhoneNumber({ userId: sub.userId, userPhoneNumber: "+14155550123", verificationToken: token });
    const found = await sdkClient(emu).getVerifiedSubOrgIds({ filterType: "PHONE_NUMBER", filterValue: "+14155550123" });
    expect(found.organizationIds).toEqual([sub.id]);
    // Without a token the number is stored unverified.
    await c.updateUserPhoneNumber({ userId: sub.userId, userPhoneNumber: "+14155550199" });
    expect((await sdkClient(emu).getVerifiedSubOrgIds({ filterType: "PHONE_NUMBER", filterValue: "+14155550199" })).organizationIds).toEqual([]);
  });
});
