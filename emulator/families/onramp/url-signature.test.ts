import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { signMoonPayUrl } from "./url-signature.js";

describe("MoonPay widget URL signing", () => {
  it("is base64 HMAC-SHA256 of the literal query string (with its '?') under the secret key, as MoonPay documents", () => {
    const query = "?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae";
    const expected = createHmac("sha256", Buffer.from("sk_test_key")).update(Buffer.from(query, "latin1")).digest().toString("base64");
    expect(signMoonPayUrl(`https://buy-sandbox.moonpay.com${query}`, "sk_test_key")).toBe(expected);
  });

  it("depends on every query byte and on the key, not on the host", () => {
    const url = "https://buy-sandbox.moonpay.com?apiKey=pk&currencyCode=eth";
    const s = signMoonPayUrl(url, "sk");
    expect(signMoonPayUrl("https://buy.moonpay.com?apiKey=pk&currencyCode=eth", "sk")).toBe(s);
    expect(signMoonPayUrl("https://buy-sandbox.moonpay.com?apiKey=pk&currencyCode=sol", "sk")).not.toBe(s);
    expect(signMoonPayUrl(url, "sk2")).not.toBe(s);
  });
});
