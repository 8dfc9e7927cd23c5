import { spawnSync } from "node:child_process";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { connectionFromEnv, connectionOf, connectionVariables, dotenv, shellExports, shellQuote, type ConnectionInfo } from "./connection.js";

const INFO: ConnectionInfo = {
  baseUrl: "http://127.0.0.1:8787",
  authProxyUrl: "http://127.0.0.1:8787",
  authProxyConfigId: "cfg",
  organizationId: "org",
  rootUserId: "user",
  apiPublicKey: "02ab",
  apiPrivateKey: "cd",
  walletId: null,
};

/** What bash sees after eval-ing `script`'s exports: the named variables' values. */
function bashEval(script: string, names: string[]): string[] {
  const r = spawnSync("bash", ["-c", `eval "$1"; for n in ${names.join(" ")}; do printf '%s\\0' "\${!n}"; done`, "bash", script], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split("\0").slice(0, -1);
}

describe("connectionOf", () => {
  it("keeps the emulator's URLs, or moves them to the origin it was reached at", () => {
    expect(connectionOf(INFO)).toMatchObject({ url: "http://127.0.0.1:8787", proxyUrl: "http://127.0.0.1:8787", organizationId: "org", rootUserId: "user" });
    expect(connectionOf({ ...INFO, authProxyUrl: "http://127.0.0.1:8787/proxy" }, "http://emulator:8787/anything")).toMatchObject({
      url: "http://emulator:8787",
      proxyUrl: "http://emulator:8787/proxy",
    });
    // A proxy elsewhere is left as the emulator gives it.
    expect(connectionOf({ ...INFO, authProxyUrl: "http://127.0.0.1:9000" }, "http://emulator:8787").proxyUrl).toBe("http://127.0.0.1:9000");
  });
});

describe("connectionVariables", () => {
  it("gives every value under each name a SDK or example reads, and skips what the fixture lacks", () => {
    const vars = Object.fromEntries(connectionVariables(connectionOf(INFO)));
    expect(vars).toEqual({
      TURNKEY_API_BASE_URL: INFO.baseUrl,
      TURNKEY_BASE_URL: INFO.baseUrl,
      BASE_URL: INFO.baseUrl,
      TURNKEY_ORGANIZATION_ID: "org",
      ORGANIZATION_ID: "org",
      TURNKEY_EMULATOR_ORG_ID: "org",
      TURNKEY_USER_ID: "user",
      TURNKEY_API_PUBLIC_KEY: "02ab",
      API_PUBLIC_KEY: "02ab",
      TURNKEY_API_PRIVATE_KEY: "cd",
      API_PRIVATE_KEY: "cd",
      TURNKEY_AUTH_PROXY_URL: INFO.authProxyUrl,
      TURNKEY_AUTH_PROXY_CONFIG_ID: "cfg",
    });
    const keyless = Object.fromEntries(connectionVariables(connectionOf({ ...INFO, apiPublicKey: null, apiPrivateKey: null, authProxyConfigId: null })));
    expect(Object.keys(keyless).filter((n) => /_KEY$|CONFIG_ID$/.test(n))).toEqual([]);
    expect(connectionVariables(connectionOf(INFO), { prefixedOnly: true }).map(([n]) => n)).not.toContain("BASE_URL");
  });

  it("round-trips through the environment (what the jest helper writes, its tests read)", () => {
    const c = connectionOf(INFO);
    const env = Object.fromEntries(connectionVariables(c, { prefixedOnly: true }));
    expect(connectionFromEnv(env)).toEqual({ ...c, walletId: null });
    expect(() => connectionFromEnv({ ...env, TURNKEY_USER_ID: "" })).toThrow(/^TURNKEY_USER_ID is not set/);
  });
});

describe("shell exports", () => {
  it("quote any value so that eval gives it back byte for byte", () => {
    const values = ["plain", "it's", "'", "''", "$HOME `id` $(id) \\n \"q\" * ; &", "line\nbreak", "", "ünïcode ✓"];
    const vars = values.map((v, i) => [`V${i}`, v] as [string, string]);
    expect(bashEval(shellExports(vars), vars.map(([n]) => n))).toEqual(values);
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});

describe("dotenv", () => {
  it("writes URL, id and hex values bare, others in single quotes, and reads back as written", () => {
    const vars: [string, string][] = [
      ["A", "http://127.0.0.1:8787"],
      ["B", "0d59bf5a-3228-47d7-8128-1e1c1da98a34"],
      ["C", "has space # and $dollar"],
    ];
    expect(dotenv(vars)).toBe("A=http://127.0.0.1:8787\nB=0d59bf5a-3228-47d7-8128-1e1c1da98a34\nC='has space # and $dollar'\n");
    expect(parseEnv(dotenv(vars))).toEqual(Object.fromEntries(vars));
  });

  it("refuses a value no quoting carries through every reader", () => {
    expect(() => dotenv([["Q", "it's"]])).toThrow(/^Q: a value with a quote or a line break/);
    expect(() => dotenv([["N", "a\nb"]])).toThrow(/^N:/);
  });
});
