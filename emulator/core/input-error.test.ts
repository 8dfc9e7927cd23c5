import { describe, expect, it } from "vitest";
import { InputError, inputAt, joinPath, QUOTE_LIMIT, quote, withoutQuotedHeads } from "./input-error.js";
import { isTurnkeyError, TurnkeyError, withField } from "./errors.js";
import { toRpcError } from "./http/errors.js";
import { signEthereumTransaction } from "../signing/index.js";

const KEY = new Uint8Array(32).fill(7);

/** The rpcStatus the service answers for a bad field (wire-facts: TurnkeyErrorDetail + google.rpc.BadRequest). */
const badRequest = (message: string, field: string) => ({
  code: 3,
  message,
  details: [
    { "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail", turnkeyErrorCode: "REQUEST_INVALID" },
    { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field, description: message }] },
  ],
});

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("joinPath / inputAt", () => {
  it("joins a root and a relative path, brackets without a dot", () => {
    expect(joinPath("parameters", "payload")).toBe("parameters.payload");
    expect(joinPath("parameters.accounts", "[1].path")).toBe("parameters.accounts[1].path");
    expect(joinPath("parameters.signWith", undefined)).toBe("parameters.signWith");
    expect(joinPath(undefined, "path")).toBe("path");
    expect(joinPath(undefined, undefined)).toBeUndefined();
  });

  it("inputAt re-roots a nested InputError and keeps message and kind", () => {
    const e = caught(() => inputAt("encryptedBundle", () => { throw new InputError("ciphertext too short", "ciphertext"); })) as InputError;
    expect(e).toBeInstanceOf(InputError);
    expect([e.message, e.path, e.kind]).toEqual(["ciphertext too short", "encryptedBundle.ciphertext", "invalid"]);
  });
});

describe("library code throws InputError, not the wire error", () => {
  it("signEthereumTransaction: an InputError at its unsignedTransaction argument", () => {
    const e = caught(() => signEthereumTransaction(KEY, "0xzz"));
    expect(e).toBeInstanceOf(InputError);
    expect(e).not.toBeInstanceOf(TurnkeyError);
    expect((e as InputError).path).toBe("unsignedTransaction");
    expect((e as InputError).message).toBe("unsignedTransaction is not valid hex");
  });
});

describe("withField: the request boundary", () => {
  it("maps an InputError to the 400 naming the request field + the relative path, message unchanged", () => {
    const message = "invalid path: m/44'/60'/0'/0/0 is used twice for ADDRESS_FORMAT_ETHEREUM in this request";
    const e = caught(() => withField("parameters.accounts", () => { throw new InputError(message, "[1].path"); }));
    expect(isTurnkeyError(e)).toBe(true);
    const t = e as TurnkeyError;
    expect(t.httpStatus).toBe(400);
    expect(t.toJSON()).toEqual(badRequest(message, "parameters.accounts[1].path"));
  });

  it("an InputError about the whole input names the root field itself", () => {
    const e = caught(() => withField("parameters.encryptedBundle", () => { throw new InputError("invalid mnemonic"); })) as TurnkeyError;
    expect(e.toJSON()).toEqual(badRequest("invalid mnemonic", "parameters.encryptedBundle"));
  });

  it("keeps the status of not_found (404) and unauthenticated (401), with no field violation", () => {
    const nf = caught(() => withField("parameters", () => { throw new InputError("no such signer", "signWith", "not_found"); })) as TurnkeyError;
    expect([nf.httpStatus, nf.code, nf.message]).toEqual([404, 5, "no such signer"]);
    expect(nf.details.some((d) => "fieldViolations" in d)).toBe(false);
    const un = caught(() => withField("parameters", () => { throw new InputError("invalid JWT signature", undefined, "unauthenticated"); })) as TurnkeyError;
    expect([un.httpStatus, un.code]).toEqual([401, 16]);
  });

  it("maps a rejected promise the same way, and returns values untouched", async () => {
    const failing = withField("parameters", async () => {
      throw new InputError("payload must not be empty", "payload");
    });
    await expect(failing).rejects.toMatchObject({ code: 3, details: expect.arrayContaining([expect.objectContaining({ fieldViolations: [{ field: "parameters.payload", description: "payload must not be empty" }] })]) });
    expect(withField("parameters", () => 42)).toBe(42);
    await expect(withField("parameters", async () => "ok")).resolves.toBe("ok");
  });

  it("lets every other error through unchanged", () => {
    const wire = new TurnkeyError(9, "already a wire error");
    expect(caught(() => withField("parameters", () => { throw wire; }))).toBe(wire);
    const bug = new TypeError("a bug");
    expect(caught(() => withField("parameters", () => { throw bug; }))).toBe(bug);
  });

  it("an InputError that reaches the HTTP layer unmapped is still the client's 400, not a 500", () => {
    const e = toRpcError(new InputError("invalid path: empty", "path"));
    expect(e.httpStatus).toBe(400);
    expect(e.toJSON()).toEqual(badRequest("invalid path: empty", "path"));
  });
});

describe("quote", () => {
  it("quotes short values as JSON and cuts long ones after 200 characters, with their length", () => {
    expect(quote('a"b')).toBe('"a\\"b"');
    expect(quote(42)).toBe("42");
    expect(quote("x".repeat(QUOTE_LIMIT))).toBe(JSON.stringify("x".repeat(200)));
    expect(quote("x".repeat(1 << 20))).toBe(`"${"x".repeat(200)}"…(1048576 characters)`);
    const message = `invalid id "short": also ${quote("y".repeat(5000))} is bad`;
    expect(withoutQuotedHeads(message)).toBe('invalid id "short": also …(5000 characters) is bad');
    expect(withoutQuotedHeads("nothing cut")).toBe("nothing cut");
  });
});
