/**
 * MoonPay's widget URL signing: the signature is base64( HMAC-SHA256( secret API key, the
 * URL's query string including its leading "?" ) ), which the MoonPay SDKs pass as
 * `signature`. init_fiat_on_ramp returns it as onRampUrlSignature for urlForSignature, with
 * the secret of the organization's MoonPay credential.
 */
import { createHmac } from "node:crypto";

export function signMoonPayUrl(url: string, secretApiKey: string): string {
  return createHmac("sha256", secretApiKey).update(new URL(url).search).digest("base64");
}
