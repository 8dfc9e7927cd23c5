import { describe, expect, it } from "vitest";
import { operationOf, parseCassette } from "./cassette.js";

const exchange = (seq: number, path = "/public/v1/query/whoami") => JSON.stringify({ seq, surface: path.startsWith("/v1/") ? "proxy" : "coordinator", path, operation: operationOf(path)!.operation, recordedAt: 1, durationMs: 0, request: { headers: {}, body: {} }, response: { status: 200, headers: {}, body: {} } });
const header = JSON.stringify({ cassette: 1, recordedAt: "2030-01-01T00:00:00Z", upstream: "https://api.example.test", recorder: "t" });

describe("cassettes", () => {
  it("name each service path's surface and operation, and nothing else", () => {
    expect(operationOf("/public/v1/submit/create_wallet")).toEqual({ surface: "coordinator", operation: "submit create_wallet" });
    expect(operationOf("/public/v1/query/whoami")).toEqual({ surface: "coordinator", operation: "query whoami" });
    expect(operationOf("/v1/otp_init")).toEqual({ surface: "proxy", operation: "proxy otp_init" });
    expect(operationOf("/emulator/v1/clock")).toBeUndefined();
    expect(operationOf("/public/v1/submit/../x")).toBeUndefined();
  });

  it("read back in the order the requests arrived (lines are written as answers come)", () => {
    const c = parseCassette([header, exchange(2), exchange(1, "/v1/otp_init"), ""].join("\n"));
    expect(c.header.upstream).toBe("https://api.example.test");
    expect(c.exchanges.map((x) => [x.seq, x.operation])).toEqual([[1, "proxy otp_init"], [2, "query whoami"]]);
  });

  it("refuse a file without a header, a line that is not an exchange (naming it), a newer version", () => {
    expect(() => parseCassette(exchange(1), "a.jsonl")).toThrow("a.jsonl: no header line");
    expect(() => parseCassette([header, "{nope"].join("\n"), "b.jsonl")).toThrow(/^b\.jsonl:2: not JSON/);
    expect(() => parseCassette([header, JSON.stringify({ seq: 1, surface: "coordinator", path: "/other", recordedAt: 1, request: { headers: {} }, response: { status: 200 } })].join("\n"), "c.jsonl")).toThrow("c.jsonl:2: not an exchange: path must be a service path");
    expect(() => parseCassette(JSON.stringify({ cassette: 99 }), "d.jsonl")).toThrow(/version 99 is newer/);
  });
});
