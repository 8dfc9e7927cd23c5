/**
 * The controllable clock, end to end through @turnkey/sdk-server: OTPs, sessions and API
 * keys expire when the emulated clock is advanced past them, with no sleeping; SDK calls
 * (stamped with the host's real clock) keep working after an advance of days.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { newP256KeyPair, sdkClient } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { info, lastMail, type Info } from "../auth/support.js";
import { control, violatedField } from "./support.js";

const emu = useTestEmulator();
let i: Info;
const DAY = 86_400_000;

beforeAll(async () => {
  i = await info(emu);
});

const advance = (ms: number) => control(emu, "POST", "/clock", { advanceMs: ms });

describe("control clock", () => {
  it("reads, sets and advances the emulated time; refuses a negative advance naming the field", async () => {
    const before = await control(emu, "GET", "/clock");
    expect(before.status).toBe(200);
    expect(new Date(before.json.iso).getTime()).toBe(before.json.now);

    const set = await control(emu, "POST", "/clock", { set: "2031-05-01T12:00:00.000Z" });
    expect(set.status).toBe(200);
    expect(set.json.now).toBeGreaterThanOrEqual(Date.UTC(2031, 4, 1, 12));
    const advanced = await advance(DAY);
    expect(advanced.json.offsetMs - set.json.offsetMs).toBe(DAY);

    const bad = await advance(-1);
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe(3);
    expect(violatedField(bad.json)).toBe("advanceMs");
    expect((await control(emu, "GET", "/clock")).json.offsetMs).toBe(advanced.json.offsetMs);

    // The SDK stamps with the host clock: its calls still pass the liveness check.
    const me = await sdkClient(emu).getWhoami({ organizationId: emu.info.organizationId });
    expect(me.organizationId).toBe(emu.info.organizationId);
    // Resources created now carry the emulated time.
    const { walletId } = await sdkClient(emu).createWallet({ walletName: "in 2031", accounts: [] });
    const { wallet } = await sdkClient(emu).getWallet({ walletId });
    expect(Number(wallet.createdAt.seconds) * 1000).toBeGreaterThanOrEqual(Date.UTC(2031, 4, 2, 12));
    await control(emu, "POST", "/clock", { set: Date.now() });
  });

  it("expires an OTP when the clock passes its lifetime", async () => {
    const email = "clock-otp@example.com";
    const client = sdkClient(emu);
    const { otpId, otpEncryptionTargetBundle } = await client.initOtp({ otpType: "OTP_TYPE_EMAIL", contact: email, appName: "Clock", expirationSeconds: "120" } as never);
    const code = (await lastMail(emu, email)).otpCode!;
    const session = generateP256KeyPair();
    const bundle = () => encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, session.publicKey, i.tlsFetcherPublicKey);

    await advance(119_000);
    // Still valid a second before expiry: a fresh OTP proves the same code path works.
    const again = await client.initOtp({ otpType: "OTP_TYPE_EMAIL", contact: email, appName: "Clock", expirationSeconds: "120" } as never);
    const code2 = (await lastMail(emu, email)).otpCode!;
    const ok = await client.verifyOtp({ otpId: again.otpId, encryptedOtpBundle: await encryptOtpCodeToBundle(code2, again.otpEncryptionTargetBundle, session.publicKey, i.tlsFetcherPublicKey) });
    expect(ok.verificationToken).toBeTruthy();

    await advance(1_000);
    await expect(client.verifyOtp({ otpId, encryptedOtpBundle: await bundle() })).rejects.toThrow(/OTP has expired/);
  });

  it("expires a login session (stamp_login) and dates its JWT by the emulated clock", async () => {
    await advance(3 * DAY);
    const session = newP256KeyPair();
    const { session: jwt } = await sdkClient(emu).stampLogin({ publicKey: session.publicKey, expirationSeconds: "900" });
    const { now } = (await control(emu, "GET", "/clock")).json;
    const exp = JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()).exp as number;
    expect(Math.abs(exp - (Math.floor(now / 1000) + 900))).toBeLessThanOrEqual(2);

    const asSession = sdkClient(emu, session);
    expect((await asSession.getWhoami({ organizationId: emu.info.organizationId })).organizationId).toBe(emu.info.organizationId);
    await advance(901_000);
    await expect(asSession.getWhoami({ organizationId: emu.info.organizationId })).rejects.toThrow(/expired api key/);
  });

  it("expires an API key with expirationSeconds", async () => {
    const key = newP256KeyPair();
    await sdkClient(emu).createApiKeys({
      userId: emu.info.rootUserId,
      apiKeys: [{ apiKeyName: "expiring", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256", expirationSeconds: "60" }],
    });
    const asKey = sdkClient(emu, key);
    expect((await asKey.getWhoami({ organizationId: emu.info.organizationId })).userId).toBe(emu.info.rootUserId);
    await advance(59_000);
    expect((await asKey.getWhoami({ organizationId: emu.info.organizationId })).userId).toBe(emu.info.rootUserId);
    await advance(1_000);
    await expect(asKey.getWhoami({ organizationId: emu.info.organizationId })).rejects.toThrow(/expired api key/);
  });

  it("is back at host time after a reset", async () => {
    await advance(DAY);
    await control(emu, "POST", "/reset");
    expect((await control(emu, "GET", "/clock")).json.offsetMs).toBe(0);
  });
});
