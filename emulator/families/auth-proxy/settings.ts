/**
 * An auth-proxy configuration's settings (the fields of `update_auth_proxy_config`), their
 * defaults, and the values the proxy derives from them: OTP shape and lifetimes, the session
 * lifetime, allowed origins, and the wallet-kit configuration the browser SDKs read.
 */
import { invalidArgument } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import { authEnabled, type AuthSwitch } from "../organizations/index.js";

export type WalletKitSettings = { enabledSocialProviders?: string[]; oauthClientIds?: Record<string, string>; oauthRedirectUrl?: string };

export type AuthProxySettings = {
  allowedOrigins?: string[];
  allowedAuthMethods?: string[];
  sendFromEmailAddress?: string;
  replyToEmailAddress?: string;
  sendFromEmailSenderName?: string;
  emailAuthTemplateId?: string;
  otpTemplateId?: string;
  emailCustomizationParams?: { appName?: string; logoUrl?: string; magicLinkTemplate?: string; templateVariables?: string; templateId?: string };
  smsCustomizationParams?: { template?: string };
  walletKitSettings?: WalletKitSettings;
  otpExpirationSeconds?: number;
  verificationTokenExpirationSeconds?: number;
  sessionExpirationSeconds?: number;
  otpAlphanumeric?: boolean;
  otpLength?: number;
  verificationTokenRequiredForGetAccountPii?: boolean;
  socialLinkingClientIds?: string[];
  captchaEnabled?: boolean;
};

/** Dashboard defaults (allowed origins `*`, 900 s sessions) and init_otp's own defaults. */
export const DEFAULTS = {
  allowedOrigins: ["*"],
  sessionExpirationSeconds: 900,
  otpExpirationSeconds: 300,
  verificationTokenExpirationSeconds: 3600,
  otpLength: 9,
  otpAlphanumeric: true,
  appName: "Turnkey",
} as const;

/** Social providers as the wallet kit names them; every other auth method is listed as given. */
export const SOCIAL_PROVIDERS = new Set(["google", "apple", "facebook", "x", "discord"]);

/** Checks and merges an update into the current settings (absent fields keep their value). */
export function mergeSettings(current: AuthProxySettings, update: AuthProxySettings, field = "parameters"): AuthProxySettings {
  const next: AuthProxySettings = { ...current };
  for (const [k, v] of Object.entries(update)) if (v !== undefined) (next as Record<string, unknown>)[k] = v;
  const range = (name: keyof AuthProxySettings, min: number, max: number) => {
    const v = next[name];
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)) throw invalidArgument(`${name} must be between ${min} and ${max}`, `${field}.${name}`);
  };
  range("otpLength", 6, 9);
  range("otpExpirationSeconds", 1, 600);
  range("verificationTokenExpirationSeconds", 1, 86400);
  range("sessionExpirationSeconds", 1, 365 * 24 * 3600);
  for (const [i, o] of (next.allowedOrigins ?? []).entries()) {
    if (o === "*") continue;
    let url: URL | undefined;
    try {
      url = new URL(o);
    } catch {
      url = undefined;
    }
    // Exact origins only: no paths and no partial wildcards.
    if (!url || url.origin !== o || o.includes("*")) throw invalidArgument(`allowed origin must be "*" or an exact origin such as https://app.example.com: ${quote(o)}`, `${field}.allowedOrigins[${i}]`);
  }
  return next;
}

/** The origin to echo in Access-Control-Allow-Origin, or null when `origin` is not allowed. */
export function allowedOrigin(s: AuthProxySettings, origin: string | undefined): string | null {
  const list: readonly string[] = s.allowedOrigins ?? DEFAULTS.allowedOrigins;
  if (origin === undefined) return list.includes("*") ? "*" : null;
  return list.includes("*") || list.includes(origin) ? origin : null;
}

export const effective = (s: AuthProxySettings) => ({
  sessionExpirationSeconds: s.sessionExpirationSeconds ?? DEFAULTS.sessionExpirationSeconds,
  otpExpirationSeconds: s.otpExpirationSeconds ?? DEFAULTS.otpExpirationSeconds,
  verificationTokenExpirationSeconds: s.verificationTokenExpirationSeconds ?? DEFAULTS.verificationTokenExpirationSeconds,
  otpLength: s.otpLength ?? DEFAULTS.otpLength,
  otpAlphanumeric: s.otpAlphanumeric ?? DEFAULTS.otpAlphanumeric,
  appName: s.emailCustomizationParams?.appName || DEFAULTS.appName,
});

/** Wallet-kit auth methods that need an organization feature: the email and SMS codes. */
const METHOD_SWITCHES: Record<string, AuthSwitch> = { email: "emailOtp", sms: "sms" };

/**
 * The `/v1/wallet_kit_config` body. An auth method whose feature the organization has switched
 * off (remove_organization_feature) is not offered, since the proxy would refuse its codes.
 */
export function walletKitConfig(s: AuthProxySettings, org: Pick<OrganizationRow, "id" | "features">) {
  const e = effective(s);
  const providers = [...(s.allowedAuthMethods ?? []), ...(s.walletKitSettings?.enabledSocialProviders ?? [])];
  const offered = (p: string) => !(p in METHOD_SWITCHES) || authEnabled(org, METHOD_SWITCHES[p]!);
  return {
    enabledProviders: [...new Set(providers)].filter(offered),
    sessionExpirationSeconds: String(e.sessionExpirationSeconds),
    organizationId: org.id,
    oauthClientIds: { ...(s.walletKitSettings?.oauthClientIds ?? {}) },
    ...(s.walletKitSettings?.oauthRedirectUrl ? { oauthRedirectUrl: s.walletKitSettings.oauthRedirectUrl } : {}),
    otpAlphanumeric: e.otpAlphanumeric,
    otpLength: String(e.otpLength),
  };
}

/** Splits a flat provider list (fixture form) into auth methods and social providers. */
export function settingsFromProviders(enabledProviders: string[]): Pick<AuthProxySettings, "allowedAuthMethods" | "walletKitSettings"> {
  return {
    allowedAuthMethods: enabledProviders.filter((p) => !SOCIAL_PROVIDERS.has(p)),
    walletKitSettings: { enabledSocialProviders: enabledProviders.filter((p) => SOCIAL_PROVIDERS.has(p)) },
  };
}
