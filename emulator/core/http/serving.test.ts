import { EventEmitter } from "node:events";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Serving } from "./serving.js";

describe("Serving", () => {
  it("is quiet once no request has been open for the asked time", () => {
    const s = new Serving();
    expect(s.untilQuiet(5, 0)).toBe(0);
    const res = new EventEmitter();
    s.begin("/public/v1/submit/sign_raw_payload", res);
    expect(s.open).toBe(1);
    expect(s.untilQuiet(5)).toBe(5);
    res.emit("close");
    expect(s.open).toBe(0);
    const end = s.lastEndAt;
    expect(s.untilQuiet(5, end + 2)).toBe(3);
    expect(s.untilQuiet(5, end + 5)).toBe(0);
  });

  it("leaves the control API out (its event stream stays open)", () => {
    const s = new Serving();
    s.begin("/emulator/v1/ui/events", new EventEmitter());
    expect(s.open).toBe(0);
    expect(s.untilQuiet(5)).toBe(0);
  });

  it("counts a real server's requests until their answers end", async () => {
    const s = new Serving();
    let seen = -1;
    const server = createServer((_req, res) => {
      seen = s.open;
      res.end("ok");
    });
    s.track(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      await new Promise<void>((resolve, reject) => {
        request({ port, host: "127.0.0.1", path: "/v1/account", method: "POST" }, (res) => {
          res.resume();
          res.on("end", resolve);
        })
          .on("error", reject)
          .end();
      });
      expect(seen).toBe(1);
      await new Promise((r) => setImmediate(r));
      expect(s.open).toBe(0);
      expect(s.lastEndAt).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });
});
