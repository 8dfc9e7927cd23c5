import { describe, expect, it } from "vitest";
import { TurnkeyError } from "../../core/errors.js";
import { formatRequestLine, parseRequestFilter, RequestLog, stampKey, type RequestRecord } from "./request-log.js";

const rec = (over: Partial<RequestRecord>): Omit<RequestRecord, "seq"> => ({
  at: new Date(1000).toISOString(),
  atMs: 1000,
  method: "POST",
  path: "/public/v1/query/whoami",
  organizationId: "org-1",
  caller: { userId: "user-1", key: "02abcdef0123…" },
  status: 200,
  latencyMs: 1.25,
  activityId: null,
  errorCode: null,
  turnkeyErrorCode: null,
  ...over,
});

describe("request log", () => {
  it("keeps the newest records up to its capacity, newest last", () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 5; i++) log.add(rec({ atMs: i }));
    expect(log.query().map((r) => r.seq)).toEqual([3, 4, 5]);
  });

  it("filters by path, organization, status or class, and time", () => {
    const log = new RequestLog();
    log.add(rec({ atMs: 1 }));
    log.add(rec({ atMs: 2, path: "/public/v1/submit/sign_raw_payload", status: 400, errorCode: 3 }));
    log.add(rec({ atMs: 3, organizationId: "org-2", status: 404 }));
    expect(log.query(parseRequestFilter({ path: "sign_raw" })).map((r) => r.atMs)).toEqual([2]);
    expect(log.query(parseRequestFilter({ org: "org-2" })).map((r) => r.atMs)).toEqual([3]);
    expect(log.query(parseRequestFilter({ status: "4xx" })).map((r) => r.atMs)).toEqual([2, 3]);
    expect(log.query(parseRequestFilter({ status: "404" })).map((r) => r.atMs)).toEqual([3]);
    expect(log.query(parseRequestFilter({ since: "2" })).map((r) => r.atMs)).toEqual([2, 3]);
    expect(log.query(parseRequestFilter({ since: new Date(3).toISOString() })).map((r) => r.atMs)).toEqual([3]);
    expect(log.query(parseRequestFilter({ limit: "1" })).map((r) => r.atMs)).toEqual([3]);
  });

  it("refuses malformed filters naming the parameter", () => {
    for (const [k, v] of [["status", "teapot"], ["since", "yesterday"], ["limit", "0"], ["path", ["a", "b"]]] as const) {
      try {
        parseRequestFilter({ [k]: v });
        throw new Error("accepted");
      } catch (e) {
        expect(e).toBeInstanceOf(TurnkeyError);
        expect(JSON.stringify((e as TurnkeyError).details)).toContain(`"field":"${k}"`);
      }
    }
  });

  it("reads only the key of a stamp, never its signature", () => {
    const stamp = Buffer.from(JSON.stringify({ publicKey: "02abc", signature: "3045secret", scheme: "SIGNATURE_SCHEME_TK_API_P256" })).toString("base64url");
    expect(stampKey({ "x-stamp": stamp })).toBe("02abc");
    expect(stampKey({ "x-stamp-webauthn": JSON.stringify({ credentialId: "cred", signature: "s" }) })).toBe("cred");
    expect(stampKey({ "x-stamp": "%%%" })).toBeNull();
    expect(stampKey({})).toBeNull();
  });

  it("prints one concise line", () => {
    const line = formatRequestLine({ seq: 1, ...rec({ status: 400, errorCode: 3, turnkeyErrorCode: "REQUEST_INVALID", activityId: "act-1" }) });
    expect(line).toBe("1970-01-01T00:00:01.000Z POST /public/v1/query/whoami 400 1.3ms org=org-1 user=user-1 activity=act-1 error=3/REQUEST_INVALID");
  });
});
