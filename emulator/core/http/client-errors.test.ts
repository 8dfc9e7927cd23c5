import { describe, expect, it } from "vitest";
import { requestHead } from "./client-errors.js";

describe("requestHead (the part of a refused request the parser had read)", () => {
  it("reads the request line and the complete header lines, names lower-cased, the first of a repeated name", () => {
    const raw = Buffer.from("POST /v1/otp_init?x=1 HTTP/1.1\r\nHost: h\r\nOrigin: http://localhost:5173\r\norigin: http://other\r\nX-Auth-Proxy-Config-ID:  abc \r\nX-Big: aaaa");
    expect(requestHead(raw)).toEqual({ method: "POST", path: "/v1/otp_init", headers: { host: "h", origin: "http://localhost:5173", "x-auth-proxy-config-id": "abc" } });
  });

  it("keeps no value with a control character or a byte outside ASCII (what is kept may be echoed)", () => {
    const raw = Buffer.from("POST /public/v1/query/whoami HTTP/1.1\r\nOrigin: http://a\nX-Injected: 1\r\nX-Latin: caf\xe9\r\n\r\n", "latin1");
    expect(requestHead(raw)?.headers).toEqual({});
  });

  it("is undefined when the bytes do not begin with a request line", () => {
    expect(requestHead(Buffer.from("aaaaaa\r\nOrigin: http://a\r\n"))).toBeUndefined();
    expect(requestHead(undefined)).toBeUndefined();
  });
});
