import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rpcErrorHandler, toRpcError, TransportError } from "./errors.js";
import { GrpcCode, internal, invalidArgument } from "../errors.js";

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.get("/bug", () => {
    throw new Error("boom at /work/main/emulator/secret.ts:1:1");
  });
  app.get("/async-bug", (_req, _res, next) => {
    setImmediate(() => next(new TypeError("cannot read properties of undefined")));
  });
  app.get("/refused", () => {
    throw invalidArgument("nope", "parameters.x");
  });
  app.get("/non-conforming", () => {
    throw invalidArgument("would not pass the contract");
  });
  app.use(
    rpcErrorHandler((e) => {
      if (e.message === "would not pass the contract") throw internal("contract violation in error response");
    }),
  );
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the last error handler", () => {
  it("answers a bug as 500 `internal server error (<id>)`, logging the stack and never sending it", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const path of ["/bug", "/async-bug"]) {
        const res = await fetch(base + path);
        expect(res.status).toBe(500);
        const text = await res.text();
        const body = JSON.parse(text);
        expect(body).toEqual({ code: 13, message: expect.stringMatching(/^internal server error \([0-9a-f-]{36}\)$/), details: [{ "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail", turnkeyErrorCode: "INTERNAL" }] });
        expect(text).not.toContain("/work");
        expect(text).not.toMatch(/\n\s+at /);
        const id = body.message.slice(body.message.indexOf("(") + 1, -1);
        expect(log.mock.calls.some((c) => String(c[0]).includes(id))).toBe(true);
      }
    } finally {
      log.mockRestore();
    }
  });

  it("passes TurnkeyErrors through with their status, and sends the check's error instead when the check refuses", async () => {
    const refused = await fetch(`${base}/refused`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 3, message: "nope" });
    const checked = await fetch(`${base}/non-conforming`);
    expect(checked.status).toBe(500);
    expect(await checked.json()).toMatchObject({ code: 13, message: "contract violation in error response" });
  });
});

describe("toRpcError on the body reader's errors", () => {
  it("keeps HTTP's own status for transport refusals", () => {
    const tooLarge = toRpcError(Object.assign(new Error("request entity too large"), { status: 413, type: "entity.too.large", limit: 100 }));
    expect(tooLarge).toBeInstanceOf(TransportError);
    expect(tooLarge.httpStatus).toBe(413);
    expect(tooLarge.code).toBe(GrpcCode.RESOURCE_EXHAUSTED);
    expect(tooLarge.message).toBe("request body too large: the limit is 100 bytes");
    const encoding = toRpcError(Object.assign(new Error("x"), { status: 415, type: "encoding.unsupported", encoding: "zz" }));
    expect([encoding.httpStatus, encoding.code]).toEqual([415, GrpcCode.INVALID_ARGUMENT]);
  });

  it("treats a 5xx-status error as a bug, not as the client's fault", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const e = toRpcError(Object.assign(new Error("stream is not readable"), { status: 500, type: "stream.not.readable" }));
      expect(e.code).toBe(GrpcCode.INTERNAL);
      expect(e.message).toMatch(/^internal server error/);
    } finally {
      log.mockRestore();
    }
  });
});
