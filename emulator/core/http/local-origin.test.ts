import { describe, expect, it } from "vitest";
import { hostAllowed, hostName, isLocalOnlyPath } from "./local-origin.js";

describe("hostName", () => {
  it.each([
    ["127.0.0.1:8787", "127.0.0.1"],
    ["LOCALHOST:8787", "localhost"],
    ["[::1]:8787", "::1"],
    ["[::ffff:127.0.0.1]", "::ffff:127.0.0.1"],
    ["emulator", "emulator"],
    ["app.localhost:3000", "app.localhost"],
  ])("%s -> %s", (header, name) => {
    expect(hostName(header)).toBe(name);
  });

  it.each(["", "evil.example:80:81", "user@127.0.0.1", "a/b", "[zz]:1", "127.0.0.1:123456", "a b"])("refuses %j", (header) => {
    expect(hostName(header)).toBeUndefined();
  });
});

describe("hostAllowed", () => {
  it("takes loopback names, any IP address, the listen host and the allowed names", () => {
    for (const name of ["localhost", "app.localhost", "127.0.0.1", "10.1.2.3", "::1", "0.0.0.0"]) expect(hostAllowed(name, {})).toBe(true);
    expect(hostAllowed("evil.example", {})).toBe(false);
    expect(hostAllowed("localhost.evil.example", {})).toBe(false);
    expect(hostAllowed("emulator", { host: "emulator" })).toBe(true);
    expect(hostAllowed("emulator", { allowHosts: ["Emulator"] })).toBe(true);
    expect(hostAllowed("api.dev.test", { allowHosts: [".dev.test"] })).toBe(true);
    expect(hostAllowed("dev.test", { allowHosts: [".dev.test"] })).toBe(true);
    expect(hostAllowed("evildev.test", { allowHosts: [".dev.test"] })).toBe(false);
  });
});

describe("isLocalOnlyPath", () => {
  it("guards /emulator/ except the chains' JSON-RPC and the OIDC issuer's public documents", () => {
    for (const p of ["/emulator/v1/state", "/emulator/v1/info", "/emulator/ui/", "/emulator/frames/export", "/emulator/v1/oidc/token", "/emulator/v1/chains"]) {
      expect(isLocalOnlyPath(p)).toBe(true);
    }
    for (const p of ["/emulator/v1/chains/eip155:1/rpc", "/emulator/v1/oidc/jwks", "/emulator/v1/oidc/.well-known/openid-configuration", "/public/v1/query/whoami", "/v1/otp_init", "/openapi.json"]) {
      expect(isLocalOnlyPath(p)).toBe(false);
    }
  });
});
