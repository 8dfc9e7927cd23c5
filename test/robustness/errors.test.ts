/**
 * Every answer of every route is an rpcStatus JSON body with the right HTTP status, also when
 * the request never reaches a handler: bodies over the size limit, unknown or broken
 * Content-Encoding, malformed JSON on the control API. No stack trace
 * or file path reaches the client, and the official SDKs surface a 413 as a TurnkeyRequestError.
 */
import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { TurnkeyRequestError as HttpRequestError } from "@turnkey/http";
import { TurnkeyRequestError as ServerRequestError } from "@turnkey/sdk-server";
import { MAX_BODY_BYTES } from "../../emulator/core/http/body.js";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { devKey, httpClient, sdkClient, stampBody, storeCounts, submitBody } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const emu = useTestEmulator();

const OVERSIZED = "x".repeat(MAX_BODY_BYTES + 1024);

/** Sends a request; asserts the answer is an rpcStatus with `status` and no trace of the server's insides. */
async function expectRpcStatus(path: string, init: { body?: string | Buffer; headers?: Record<string, string>; method?: string }, status: number) {
  const res = await fetch(emu.url + path, { method: init.method ?? "POST", headers: init.headers, body: init.body as BodyInit | undefined });
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { code: unknown; message: unknown; details: unknown };
  expect(Object.keys(body).sort()).toEqual(["code", "details", "message"]);
  expect(typeof body.code).toBe("number");
  expect(body.code).not.toBe(0);
  expect(typeof body.message).toBe("string");
  expect((body.message as string).length).toBeGreaterThan(0);
  expect(Array.isArray(body.details)).toBe(true);
  expect(text).not.toMatch(/\bat \S+ \(|\n\s+at /); // no stack frames
  expect(text).not.toContain("/work");
  expect(text).not.toContain("node_modules");
  expect(text).not.toMatch(/<html|<pre/i);
  return body as { code: number; message: string; details: { "@type": string; [k: string]: unknown }[] };
}

const JSON_HEADERS = { "content-type": "application/json" };

describe("bodies over the size limit: 413 rpcStatus", () => {
  it.each([
    ["a coordinator submit", "/public/v1/submit/create_wallet"],
    ["a coordinator query", "/public/v1/query/whoami"],
    ["an auth proxy route", "/v1/account"],
    ["the control API's OIDC token endpoint", "/emulator/v1/oidc/token"],
    ["the control API's OAuth2 authorize endpoint", "/emulator/v1/oauth2/authorize"],
  ])("%s", async (_what, path) => {
    const before = storeCounts(emu);
    const body = await expectRpcStatus(path, { body: OVERSIZED, headers: JSON_HEADERS }, 413);
    expect(body.code).toBe(8);
    expect(body.message).toMatch(/request body too large: the limit is 10485760 bytes/);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("a gzip body that inflates past the limit is refused the same way", async () => {
    const body = await expectRpcStatus("/public/v1/submit/create_wallet", { body: gzipSync(OVERSIZED), headers: { ...JSON_HEADERS, "content-encoding": "gzip" } }, 413);
    expect(body.code).toBe(8);
  });

  it("@turnkey/http surfaces it as a TurnkeyRequestError", async () => {
    const client = httpClient(emu);
    const err = await client
      .signRawPayload({
        type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
        timestampMs: String(Date.now()),
        organizationId: emu.info.organizationId,
        parameters: { signWith: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", payload: "ab".repeat(MAX_BODY_BYTES / 2), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpRequestError);
    expect((err as HttpRequestError).code).toBe(8);
    expect((err as HttpRequestError).message).toMatch(/request body too large/);
  });

  it("@turnkey/sdk-server surfaces it as a TurnkeyRequestError", async () => {
    const err = await sdkClient(emu)
      .createWallet({ walletName: OVERSIZED, accounts: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerRequestError);
    expect((err as ServerRequestError).code).toBe(8);
    expect((err as ServerRequestError).message).toMatch(/request body too large/);
  });
});

describe("refusals a browser can read", () => {
  it("an oversized auth-proxy body carries the configuration's CORS headers, so the app sees the 413", async () => {
    const origin = "http://localhost:5173";
    const res = await fetch(emu.url + "/v1/account", {
      method: "POST",
      headers: { ...JSON_HEADERS, origin, "x-auth-proxy-config-id": emu.info.authProxyConfigId! },
      body: OVERSIZED,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    expect(((await res.json()) as { code: number }).code).toBe(8);
  });
});

describe("bodies that are not UTF-8", () => {
  it.each([
    ["a coordinator submit", "/public/v1/submit/create_wallet"],
    ["an auth proxy route", "/v1/account"],
  ])("%s answers 400 naming the body, writing nothing", async (_what, path) => {
    const before = storeCounts(emu);
    // A JSON object whose string holds a lone continuation byte (0x80): not UTF-8.
    const bytes = Buffer.concat([Buffer.from('{"organizationId":"'), Buffer.from([0x80]), Buffer.from('"}')]);
    // The official stamper takes text, so sign these exact bytes the way it signs (P-256 ECDSA
    // over SHA-256, DER, in a base64url JSON stamp): the refusal must come from the body, not the stamp.
    const key = devKey(emu);
    const signature = bytesToHex(p256.sign(bytes, hexToBytes(key.privateKey), { format: "der" }));
    const stamp = Buffer.from(JSON.stringify({ publicKey: key.publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature })).toString("base64url");
    const headers = { ...JSON_HEADERS, "x-stamp": stamp, "x-auth-proxy-config-id": emu.info.authProxyConfigId! };
    const body = await expectRpcStatus(path, { body: bytes, headers }, 400);
    expect(body.code).toBe(3);
    expect(body.message).toMatch(/not valid UTF-8/);
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("Content-Encoding", () => {
  it("an unknown encoding answers 415 naming it, on the coordinator and the control API", async () => {
    for (const path of ["/public/v1/submit/create_wallet", "/emulator/v1/oidc/token", "/v1/account"]) {
      const body = await expectRpcStatus(path, { body: "{}", headers: { ...JSON_HEADERS, "content-encoding": "x-unknown" } }, 415);
      expect(body.code).toBe(3);
      expect(body.message).toContain('unsupported Content-Encoding "x-unknown"');
    }
  });

  it("a body that does not decode under its encoding answers 400", async () => {
    for (const encoding of ["gzip", "deflate", "br"]) {
      const body = await expectRpcStatus("/public/v1/submit/create_wallet", { body: "this is not compressed", headers: { ...JSON_HEADERS, "content-encoding": encoding } }, 400);
      expect(body.code).toBe(3);
      expect(body.message).toMatch(/does not decode under its Content-Encoding/);
    }
  });

  it("a well-formed gzip body is read (and a stamp over the decoded bytes verifies)", async () => {
    const json = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "from a gzip body", accounts: [] });
    const stamp = await stampBody(json, devKey(emu));
    const res = await fetch(`${emu.url}/public/v1/submit/create_wallet`, {
      method: "POST",
      headers: { ...JSON_HEADERS, "content-encoding": "gzip", [stamp.stampHeaderName]: stamp.stampHeaderValue },
      body: gzipSync(json),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { activity: { status: string } }).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });
});

describe("malformed JSON on the control API: 400 rpcStatus naming the body", () => {
  it.each([
    ["/emulator/v1/oidc/token", "{"],
    ["/emulator/v1/oidc/token", "null"],
    ["/emulator/v1/oauth2/authorize", "null"],
    ["/emulator/v1/oauth2/authorize", "[1,2]"],
    ["/emulator/v1/oauth2/authorize", '"a string"'],
    ["/emulator/v1/auth-proxy", "{"],
    ["/emulator/v1/auth-proxy", "42"],
  ])("%s with %s", async (path, raw) => {
    const before = storeCounts(emu);
    const body = await expectRpcStatus(path, { body: raw, headers: JSON_HEADERS }, 400);
    expect(body.code).toBe(3);
    expect(body.message).toMatch(/^bad request body: (it is not valid JSON|expected a JSON object)/);
    const violation = body.details.find((d) => d["@type"] === "type.googleapis.com/google.rpc.BadRequest") as { fieldViolations: { field: string }[] } | undefined;
    expect(violation?.fieldViolations[0]?.field).toBe("body");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("the same endpoints still take their documented bodies (JSON, and a form for the token endpoint)", async () => {
    const json = await fetch(`${emu.url}/emulator/v1/oidc/token`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ sub: "s", aud: "a" }) });
    expect(json.status).toBe(200);
    const form = await fetch(`${emu.url}/emulator/v1/oidc/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "sub=s&aud=a" });
    expect(form.status).toBe(200);
    expect(((await form.json()) as { id_token: string }).id_token.split(".")).toHaveLength(3);
  });

  it("a redirectUri that is not a URL is a 400, not a 500", async () => {
    const body = await expectRpcStatus(
      "/emulator/v1/oauth2/authorize",
      { body: JSON.stringify({ provider: "OAUTH2_PROVIDER_X", clientId: "c", redirectUri: "not a url", codeChallenge: "x", subject: "s" }), headers: JSON_HEADERS },
      400,
    );
    expect(body.message).toMatch(/redirectUri/);
  });
});

describe("routes nobody serves", () => {
  it.each([
    ["GET", "/"],
    ["GET", "/public/v1/query/whoami"],
    ["POST", "/public/v1/query/no_such_query"],
    ["PUT", "/emulator/v1/oidc/token"],
    ["DELETE", "/emulator/v1/reset"],
    ["GET", "/%E0%A4%A"],
  ])("%s %s answers rpcStatus JSON", async (method, path) => {
    const res = await fetch(emu.url + path, { method });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).not.toBe(500);
    await expectRpcStatus(path, { method }, res.status);
  });
});
