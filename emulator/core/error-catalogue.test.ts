import { describe, expect, it } from "vitest";
import { DOCUMENTED_ERRORS, documentedMessage, type CatalogueEntry } from "./error-catalogue.js";
import { documentedError, httpStatusFor } from "./errors.js";

const entries = Object.entries(DOCUMENTED_ERRORS) as [keyof typeof DOCUMENTED_ERRORS, CatalogueEntry][];

describe("the documented error catalogue", () => {
  it("gives each row of the errors table (errors.mdx:85-149) exactly once, its status the one grpc-gateway maps its code to", () => {
    const lines = entries.map(([, e]) => Number(e.source.replace("errors.mdx:", "")));
    expect(new Set(lines).size).toBe(lines.length);
    expect([...lines].sort((a, b) => a - b)).toEqual(Array.from({ length: 149 - 85 + 1 }, (_, i) => 85 + i));
    for (const [, e] of entries) expect(httpStatusFor(e.grpcCode), e.message).toBe(e.httpStatus);
  });

  it("renders the message, then `: detail`, with its code and turnkeyErrorCode, naming the field", () => {
    expect(documentedMessage("INVALID_CURVE", "parameters.accounts[0].curve: bad")).toBe("invalid curve: parameters.accounts[0].curve: bad");
    expect(documentedMessage("EXPIRED_API_KEY", "publicKey 02ab")).toBe("rpc error: code = Unauthenticated desc = expired api key publicKey 02ab");
    const e = documentedError("WALLET_ACCOUNT_NOT_EXPORTED", "id", "parameters.deleteWithoutExport");
    expect(e.toJSON()).toEqual({
      code: 3,
      message: "wallet account has not been exported: id",
      details: [
        { "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail", turnkeyErrorCode: "WALLET_ACCOUNT_NOT_EXPORTED" },
        { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "parameters.deleteWithoutExport", description: "wallet account has not been exported: id" }] },
      ],
    });
  });
});
