/**
 * OTP codes and verification tokens in the domain, without HTTP: the per-userIdentifier
 * request limit in emulated time, wrong codes counting as attempts until the code locks, and
 * a verification token spent once, only on the contact it was issued for.
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../core/store/index.js";
import { openStore } from "../../families.js";
import { isTurnkeyError } from "../../core/errors.js";
import { instanceKeysFor } from "../../core/auth/instance-keys.js";
import type { Runtime } from "../../core/runtime.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import { generateOtpCode, initOtp, OTP_ALPHABET, otpCodeFor, verifyOtp } from "./otp.js";
import { consumeContactVerification, consumeVerificationToken } from "../../core/auth/verification-tokens.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";
import { initialAuthFeatures } from "../organizations/index.js";
import { createRandom } from "../../core/random.js";

const ORG = "00000000-0000-4000-8000-000000000001";
const EMAIL = "otp-unit@example.com";

function setup(): { ctx: DomainContext; store: Store } {
  const store = openStore();
  const org: OrganizationRow = { id: ORG, name: "org", parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: initialAuthFeatures(), createdAt: 0, updatedAt: 0 };
  store.organizations.insert(org);
  return { ctx: { rt: { store, keys: instanceKeysFor("otp-unit"), random: createRandom() } as unknown as Runtime, now: 1_000_000, org }, store };
}

function refusal(call: () => unknown): { code: number; message: string; field?: string } {
  try {
    call();
  } catch (e) {
    if (!isTurnkeyError(e)) throw e;
    const bad = e.details.find((d) => d["@type"].endsWith("BadRequest")) as { fieldViolations?: { field: string }[] } | undefined;
    return { code: e.code, message: e.message, ...(bad?.fieldViolations?.[0] ? { field: bad.fieldViolations[0].field } : {}) };
  }
  throw new Error("expected a refusal");
}

/** The code the mailbox received for this OTP (what the user reads). */
function mailedCode(store: Store, otpId: string): string {
  const mail = store.mailbox.list(EMAIL).find((m) => m.extra?.otpId === otpId);
  expect(mail).toBeDefined();
  return String(mail!.extra!.otpCode);
}

const init = (ctx: DomainContext, userIdentifier?: string) => initOtp(ctx, { otpType: "OTP_TYPE_EMAIL", contact: EMAIL, otpLength: 6, alphanumeric: false, userIdentifier });

describe("domain/otp", () => {
  it("allows 3 requests per userIdentifier in 3 minutes of emulated time, then RESOURCE_EXHAUSTED at parameters.userIdentifier", () => {
    const { ctx } = setup();
    for (let i = 0; i < 3; i++) init(ctx, "device-1");
    const r = refusal(() => init(ctx, "device-1"));
    expect(r.code).toBe(8);
    expect(r.field).toBe("parameters.userIdentifier");
    expect(r.message).toMatch(/^too many OTP requests/);
    expect(() => init(ctx, "device-2")).not.toThrow();
    expect(() => init(ctx)).not.toThrow();
    expect(() => init({ ...ctx, now: ctx.now + 3 * 60 * 1000 }, "device-1")).not.toThrow();
  });

  it("counts a wrong code as an attempt and locks the code after three", () => {
    const { ctx, store } = setup();
    const { otpId } = init(ctx);
    const code = mailedCode(store, otpId);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 3; i++) {
      const out = verifyOtp(ctx, { otpId, otpCode: wrong });
      expect("failAfterCommit" in out && out.failAfterCommit.message).toBe("invalid OTP code");
    }
    expect(refusal(() => verifyOtp(ctx, { otpId, otpCode: code }))).toMatchObject({ code: 3, message: "OTP is locked after too many failed attempts", field: "parameters.otpId" });
  });

  it("spends a verification token once, and only on the contact it was issued for", () => {
    const { ctx, store } = setup();
    const { otpId } = init(ctx);
    const out = verifyOtp(ctx, { otpId, otpCode: mailedCode(store, otpId) });
    expect("verificationToken" in out).toBe(true);
    const token = (out as { verificationToken: string }).verificationToken;
    expect(token.split(".")).toHaveLength(3);
    expect(refusal(() => verifyOtp(ctx, { otpId, otpCode: "000000" })).message).toBe("OTP has already been used");

    expect(refusal(() => consumeContactVerification(ctx, token, "OTP_TYPE_EMAIL", "someone-else@example.com"))).toMatchObject({
      code: 3,
      message: "verification token was issued for another email address",
      field: "parameters.verificationToken",
    });
    consumeContactVerification(ctx, token, "OTP_TYPE_EMAIL", EMAIL.toUpperCase());
    expect(refusal(() => consumeContactVerification(ctx, token, "OTP_TYPE_EMAIL", EMAIL)).message).toBe("verification token has already been used");
    // A login use and a signup use are counted apart.
    expect(consumeVerificationToken(ctx, token, "parameters.verificationToken", { usage: "USAGE_TYPE_SIGNUP" }).contact).toBe(EMAIL);
    expect(refusal(() => consumeVerificationToken({ ...ctx, now: ctx.now + 3601 * 1000 }, token, "parameters.verificationToken", { usage: "USAGE_TYPE_SIGNUP" })).message).toBe(
      "verification token has expired",
    );
  });

  it("sends the documented sandbox contacts 000000 only with 6 numeric digits", () => {
    expect(otpCodeFor({ otpType: "OTP_TYPE_EMAIL", contact: "User@Example.com" }, 6, false, createRandom())).toBe("000000");
    expect(otpCodeFor({ otpType: "OTP_TYPE_SMS", contact: "+19999999999" }, 6, false, createRandom())).toBe("000000");
    const random = [
      otpCodeFor({ otpType: "OTP_TYPE_EMAIL", contact: "user@example.com" }, 7, false, createRandom()),
      otpCodeFor({ otpType: "OTP_TYPE_EMAIL", contact: "user@example.com" }, 6, true, createRandom()),
      otpCodeFor({ otpType: "OTP_TYPE_SMS", contact: "user@example.com" }, 6, false, createRandom()),
      otpCodeFor({ otpType: "OTP_TYPE_EMAIL", contact: "+19999999999" }, 6, false, createRandom()),
    ];
    expect(random.map((c) => c.length)).toEqual([7, 6, 6, 6]);
    expect(new Set(random.slice(1)).has("000000")).toBe(false); // once in a million each
  });
});

describe("OTP codes", () => {
  it("use digits or Crockford base32 at the requested length", () => {
    for (let n = 0; n < 200; n++) {
      expect(generateOtpCode(6, false, createRandom())).toMatch(/^\d{6}$/);
      const code = generateOtpCode(9, true, createRandom());
      expect(code).toHaveLength(9);
      for (const ch of code) expect(OTP_ALPHABET).toContain(ch);
    }
    expect(OTP_ALPHABET).not.toMatch(/[ILOU]/);
  });
});
