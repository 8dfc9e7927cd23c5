import { describe, expect, it } from "vitest";
import { checkWebhookOptions } from "./settings.js";
import { checkWebhookUrl } from "./url.js";

describe("webhook settings", () => {
  it("canonicalises allowed hosts given to startEmulator as the URL check compares them", () => {
    const { allowHosts } = checkWebhookOptions({ allowHosts: ["[fd00::1]", "FD00::0002", "Receiver", "0x0A.1.2.3"] });
    expect(allowHosts).toEqual(["fd00::1", "fd00::2", "receiver", "10.1.2.3"]);
    for (const url of ["http://[fd00::1]/h", "http://[fd00::2]:8080/h", "http://receiver/h", "http://10.1.2.3/h"]) {
      expect(checkWebhookUrl(url, "parameters.url", allowHosts)).toBe(url);
      expect(() => checkWebhookUrl(url, "parameters.url")).toThrow();
    }
  });

  it("refuses allowed hosts that are not bare hosts, naming the option and the entry", () => {
    for (const bad of ["", "http://receiver/", "receiver:8080", "user@receiver", "rec eiver", "fd00::zz", 42]) {
      expect(() => checkWebhookOptions({ allowHosts: ["ok", bad as string] }), String(bad)).toThrow(/^webhooks\.allowHosts\[1\] /);
    }
  });
});
