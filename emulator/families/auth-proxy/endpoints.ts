/** The auth proxy's endpoints (`POST /v1/<name>`), as registry entries. */
import { defineProxyEndpoint } from "../../core/vocabulary/define.js";
import { ALLOWANCE, NEW_USER_CREDENTIALS } from "../../limits/request-limits.js";
import { walletKitConfig } from "./settings.js";
import { otpInit, otpLogin, otpLoginV2, otpVerify, otpVerifyV2 } from "./otp.js";
import { oauth2Authenticate, oauthLogin } from "./oauth.js";
import { getAccount } from "./account.js";
import { signup } from "./signup.js";

/** Cloudflare Turnstile's published always-passing test site key (captcha is not emulated). */
export const TURNSTILE_TEST_SITE_KEY = "1x00000000000000000000AA";

/** A signup lists one new user's credentials and the accounts of their wallet. */
const SIGNUP_LIMITS = { ...NEW_USER_CREDENTIALS, accounts: ALLOWANCE.accountsPerRequest };

export const proxyEndpoints = [
  defineProxyEndpoint("wallet_kit_config", { emptyBody: true, run: (px) => walletKitConfig(px.settings, px.org) }),
  defineProxyEndpoint("wallet_kit_client_params", {
    emptyBody: true,
    run: (px) => (px.settings.captchaEnabled ? { turnstileSiteKey: TURNSTILE_TEST_SITE_KEY } : {}),
  }),
  defineProxyEndpoint("otp_init", { captcha: true, run: (px, b) => otpInit(px, b, false) }),
  defineProxyEndpoint("otp_init_v2", { captcha: true, run: (px, b) => otpInit(px, b, true) }),
  defineProxyEndpoint("otp_verify", { run: (px, b) => otpVerify(px, b) }),
  defineProxyEndpoint("otp_verify_v2", { run: (px, b) => otpVerifyV2(px, b) }),
  defineProxyEndpoint("otp_login", { run: (px, b) => otpLogin(px, b) }),
  defineProxyEndpoint("otp_login_v2", { run: (px, b) => otpLoginV2(px, b) }),
  defineProxyEndpoint("oauth_login", { run: (px, b) => oauthLogin(px, b) }),
  defineProxyEndpoint("oauth2_authenticate", { run: (px, b) => oauth2Authenticate(px, b) }),
  defineProxyEndpoint("account", { run: (px, b) => getAccount(px, b) }),
  defineProxyEndpoint("signup", { captcha: true, arrayLimits: SIGNUP_LIMITS, run: (px, b) => signup(px, b) }),
  defineProxyEndpoint("signup_v2", { captcha: true, arrayLimits: SIGNUP_LIMITS, run: (px, b) => signup(px, b) }),
];
