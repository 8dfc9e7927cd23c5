import { describe, expect, it } from "vitest";
import { webhookOptionsFromFlags } from "./cli-flags.js";
import { checkWebhookUrl } from "./url.js";

describe("webhook CLI flags", () => {
  it("gives no options when no flag is set", () => {
    expect(webhookOptionsFromFlags({})).toEqual({});
  });

  it("reads allowed hosts (names, IPv4 and IPv6 literals) in the form the URL check compares", () => {
    const { allowHosts } = webhookOptionsFromFlags({ "webhook-allow-host": ["Receiver", "hooks.svc.cluster", "10.1.2.3", "[fd00::0001]", "fd00::2"] });
    expect(allowHosts).toEqual(["receiver", "hooks.svc.cluster", "10.1.2.3", "fd00::1", "fd00::2"]);
    // Each is then accepted over http by the URL check, which refuses it without the flag.
    for (const url of ["http://receiver/hook", "http://10.1.2.3:8080/hook", "http://[fd00::1]/hook"]) {
      expect(checkWebhookUrl(url, "parameters.url", allowHosts)).toBe(url);
      expect(() => checkWebhookUrl(url, "parameters.url")).toThrow();
    }
  });

  it("refuses what is not a bare host, naming the flag", () => {
    for (const bad of ["", "http://receiver/", "receiver:8080", "user@receiver", "rec eiver", "-receiver", "fd00::zz", "receiver/hook"]) {
      expect(() => webhookOptionsFromFlags({ "webhook-allow-host": [bad] }), bad).toThrow(/^--webhook-allow-host /);
    }
  });

  it("reads retry delays as whole milliseconds, none as no retries", () => {
    expect(webhookOptionsFromFlags({ "webhook-retry-delays": "0, 250,60000" }).retryDelaysMs).toEqual([0, 250, 60_000]);
    expect(webhookOptionsFromFlags({ "webhook-retry-delays": "none" }).retryDelaysMs).toEqual([]);
  });

  it("refuses delays that are not whole non-negative milliseconds, naming the flag and the delay", () => {
    expect(() => webhookOptionsFromFlags({ "webhook-retry-delays": "5s" })).toThrow(/^--webhook-retry-delays: delay 1 \("5s"\)/);
    expect(() => webhookOptionsFromFlags({ "webhook-retry-delays": "100,-1" })).toThrow(/^--webhook-retry-delays: delay 2/);
    expect(() => webhookOptionsFromFlags({ "webhook-retry-delays": "1.5" })).toThrow(/^--webhook-retry-delays: delay 1/);
    expect(() => webhookOptionsFromFlags({ "webhook-retry-delays": "" })).toThrow(/^--webhook-retry-delays: delay 1/);
    expect(() => webhookOptionsFromFlags({ "webhook-retry-delays": "1,,2" })).toThrow(/^--webhook-retry-delays: delay 2/);
    expect(() => webhookOptionsFromFlags({ "webhook-retry-delays": "99999999999999999999" })).toThrow(/^--webhook-retry-delays: delay 1/);
    expect(() => webhookOptionsFromFlags({ "webhook-retry-delays": Array(101).fill("1").join(",") })).toThrow(/^--webhook-retry-delays: at most 100/);
  });
});
