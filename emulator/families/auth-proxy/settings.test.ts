import { describe, expect, it } from "vitest";
import { allowedOrigin, mergeSettings, walletKitConfig } from "./settings.js";

describe("auth proxy settings", () => {
  it("allows `*` or exact origins only", () => {
    expect(allowedOrigin({}, "https://a.example")).toBe("https://a.example");
    expect(allowedOrigin({ allowedOrigins: ["https://a.example"] }, "https://b.example")).toBeNull();
    expect(allowedOrigin({ allowedOrigins: ["https://a.example"] }, "https://a.example")).toBe("https://a.example");
    expect(() => mergeSettings({}, { allowedOrigins: ["https://a.example/path"] })).toThrow(/exact origin/);
    expect(() => mergeSettings({}, { allowedOrigins: ["https://*.a.example"] })).toThrow(/exact origin/);
  });

  it("merges updates field by field and range-checks lifetimes and OTP length", () => {
    const s = mergeSettings({ otpLength: 6, sessionExpirationSeconds: 900 }, { otpLength: 7 });
    expect(s).toEqual({ otpLength: 7, sessionExpirationSeconds: 900 });
    expect(() => mergeSettings({}, { otpLength: 10 })).toThrow(/otpLength/);
    expect(() => mergeSettings({}, { otpExpirationSeconds: 601 })).toThrow(/otpExpirationSeconds/);
  });

  it("renders wallet_kit_config with string lifetimes and defaults", () => {
    expect(walletKitConfig({}, { id: "org", features: [] })).toEqual({ enabledProviders: [], sessionExpirationSeconds: "900", organizationId: "org", oauthClientIds: {}, otpAlphanumeric: true, otpLength: "9" });
  });

  it("offers email and SMS codes only while the organization's features allow them", () => {
    const s = { allowedAuthMethods: ["email", "sms", "passkey"], walletKitSettings: { enabledSocialProviders: ["google"] } };
    const on = [{ name: "FEATURE_NAME_OTP_EMAIL_AUTH", value: "" }, { name: "FEATURE_NAME_SMS_AUTH", value: "" }];
    expect(walletKitConfig(s, { id: "org", features: on }).enabledProviders).toEqual(["email", "sms", "passkey", "google"]);
    expect(walletKitConfig(s, { id: "org", features: on.slice(1) }).enabledProviders).toEqual(["sms", "passkey", "google"]);
    expect(walletKitConfig(s, { id: "org", features: on.slice(0, 1) }).enabledProviders).toEqual(["email", "passkey", "google"]);
  });
});
