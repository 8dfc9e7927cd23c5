import { describe, expect, it } from "vitest";
import { TurnkeyError } from "../../core/errors.js";
import { FaultTable, operationOf, parseFault } from "./faults.js";

const field = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TurnkeyError);
    expect((e as TurnkeyError).httpStatus).toBe(400);
    return JSON.stringify((e as TurnkeyError).details).match(/"field":"([^"]+)"/)![1]!;
  }
  throw new Error("expected a TurnkeyError");
};

describe("faults", () => {
  it("names the operation of coordinator and proxy paths only", () => {
    expect(operationOf("/public/v1/submit/sign_raw_payload")).toBe("sign_raw_payload");
    expect(operationOf("/public/v1/query/whoami")).toBe("whoami");
    expect(operationOf("/v1/otp_init")).toBe("otp_init");
    expect(operationOf("/emulator/v1/faults")).toBeNull();
  });

  it("fails the next N calls of the named operation only", () => {
    const t = new FaultTable();
    const f = t.add(parseFault({ operation: "sign_raw_payload", count: 2, error: { code: 14 } }, 0));
    expect(t.take("/public/v1/query/whoami", 0)).toBeUndefined();
    expect(t.take("/public/v1/submit/sign_raw_payload", 0)).toBe(f);
    expect(t.take("/public/v1/submit/sign_raw_payload", 0)?.hits).toBe(2);
    expect(t.take("/public/v1/submit/sign_raw_payload", 0)).toBeUndefined();
    expect(t.list(0)).toEqual([]);
    expect(f.error).toEqual({ code: 14, message: "injected fault (gRPC code 14)" });
  });

  it("holds for a window of emulated time, by path or for every operation", () => {
    const t = new FaultTable();
    t.add(parseFault({ operation: "/public/v1/query/whoami", forMs: 1000, latencyMs: 5 }, 10_000));
    expect(t.take("/public/v1/query/whoami", 10_999)?.latencyMs).toBe(5);
    expect(t.take("/public/v1/query/whoami", 11_000)).toBeUndefined();
    t.add(parseFault({ operation: "*", drop: true }, 0));
    expect(t.take("/v1/otp_init", 0)?.drop).toBe(true);
    expect(t.take("/emulator/v1/info", 0)).toBeUndefined();
  });

  it("lists, deletes one, clears all", () => {
    const t = new FaultTable();
    const a = t.add(parseFault({ operation: "whoami", status429: { retryAfterSeconds: 3 } }, 0));
    const b = t.add(parseFault({ operation: "whoami", error: { code: 7, message: "no" } }, 0));
    expect(t.list(0).map((f) => f.id)).toEqual([a.id, b.id]);
    expect(t.take("/public/v1/query/whoami", 0)).toBe(a);
    t.delete(a.id);
    expect(() => t.delete(a.id)).toThrow(/fault not found/);
    expect(t.clear()).toBe(1);
    expect(t.list(0)).toEqual([]);
  });

  it("refuses malformed faults naming the field", () => {
    expect(field(() => parseFault({}, 0))).toBe("operation");
    expect(field(() => parseFault({ operation: "no_such_operation", drop: true }, 0))).toBe("operation");
    expect(field(() => parseFault({ operation: "whoami" }, 0))).toBe("error");
    expect(field(() => parseFault({ operation: "whoami", error: { code: 0 } }, 0))).toBe("error.code");
    expect(field(() => parseFault({ operation: "whoami", error: { code: 17 } }, 0))).toBe("error.code");
    expect(field(() => parseFault({ operation: "whoami", error: "UNAVAILABLE" }, 0))).toBe("error");
    expect(field(() => parseFault({ operation: "whoami", drop: true, count: 0 }, 0))).toBe("count");
    expect(field(() => parseFault({ operation: "whoami", drop: true, forMs: -1 }, 0))).toBe("forMs");
    expect(field(() => parseFault({ operation: "whoami", latencyMs: -5 }, 0))).toBe("latencyMs");
    expect(field(() => parseFault({ operation: "whoami", drop: false }, 0))).toBe("drop");
    expect(field(() => parseFault({ operation: "whoami", drop: true, error: { code: 14 } }, 0))).toBe("drop");
    expect(field(() => parseFault({ operation: "whoami", status429: { retryAfterSeconds: -1 } }, 0))).toBe("status429.retryAfterSeconds");
    expect(field(() => parseFault({ operation: "whoami", drop: true, times: 3 }, 0))).toBe("times");
  });
});
