import { describe, expect, it } from "vitest";
import { checkWebhookUrl, classifyHost } from "./url.js";
import { isTurnkeyError } from "../../core/errors.js";

const refusal = (url: string, allow: string[] = []) => {
  try {
    checkWebhookUrl(url, "parameters.url", allow);
    return undefined;
  } catch (e) {
    if (!isTurnkeyError(e)) throw e;
    return e.message;
  }
};

describe("webhook URL rules", () => {
  it.each(["https://hooks.example.com/x", "https://8.8.8.8/x", "https://[2606:4700::1111]/x", "https://hooks.example.com:8443/a?b=c"])("accepts public https %s", (url) => {
    expect(refusal(url)).toBeUndefined();
  });

  it.each(["http://localhost:3000/hook", "http://127.0.0.1:1/x", "http://127.8.9.10/x", "http://[::1]:8080/x", "https://app.localhost/x", "http://2130706433/x"])(
    "accepts the loopback receiver %s (the emulator's exception)",
    (url) => {
      expect(refusal(url)).toBeUndefined();
    },
  );

  it.each([
    ["http://hooks.example.com/x", /only https/],
    ["https://u:p@hooks.example.com/x", /userinfo/],
    ["https://u@hooks.example.com/x", /userinfo/],
    ["ws://hooks.example.com/x", /scheme ws/],
    ["https://0.0.0.0/x", /public/],
    ["https://10.0.0.1/x", /public/],
    ["https://100.64.1.1/x", /public/],
    ["https://172.16.5.5/x", /public/],
    ["https://172.31.255.255/x", /public/],
    ["https://192.168.0.1/x", /public/],
    ["https://169.254.169.254/x", /public/],
    ["https://224.0.0.1/x", /public/],
    ["https://[fe80::1]/x", /public/],
    ["https://[fc00::1]/x", /public/],
    ["https://[::ffff:10.0.0.1]/x", /public/],
    ["https://[2001:db8::1]/x", /public/],
    ["https://metadata.google.internal/x", /public/],
    ["https://printer.local/x", /public/],
    ["https://intranet/x", /public/],
    ["https://0x0a.1/x", /public/], // 10.0.0.1 spelled in hex
    ["", /required/],
    [`https://hooks.example.com/${"a".repeat(2100)}`, /at most/],
  ])("refuses %s", (url, why) => {
    expect(refusal(url)).toMatch(why);
  });

  it("names the field it was given", () => {
    try {
      checkWebhookUrl("http://hooks.example.com", "parameters.value");
      expect.unreachable();
    } catch (e) {
      expect(isTurnkeyError(e) && e.details.some((d) => JSON.stringify(d).includes('"parameters.value"'))).toBe(true);
    }
  });

  it("an allowed host is treated like localhost (compose service names)", () => {
    expect(refusal("http://receiver:8080/hook")).toMatch(/only https/);
    expect(refusal("http://receiver:8080/hook", ["receiver"])).toBeUndefined();
  });

  it("classifies public addresses next to private ranges correctly", () => {
    expect(classifyHost("172.15.255.255")).toBe("public");
    expect(classifyHost("172.32.0.1")).toBe("public");
    expect(classifyHost("100.63.255.255")).toBe("public");
    expect(classifyHost("11.0.0.1")).toBe("public");
  });
});
