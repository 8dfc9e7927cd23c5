/** The shared validators' errors: the service's code, message and the field they name. */
import { describe, expect, it } from "vitest";
import { isTurnkeyError } from "../errors.js";
import { requireExported, requireNonEmpty } from "./lookups.js";

function refusal(call: () => unknown): { code: number; message: string; errorCode: unknown; field: unknown } {
  try {
    call();
  } catch (e) {
    if (!isTurnkeyError(e)) throw e;
    const bad = e.details.find((d) => d["@type"].endsWith("BadRequest")) as { fieldViolations?: { field: string }[] } | undefined;
    const turnkey = e.details.find((d) => "turnkeyErrorCode" in d) as { turnkeyErrorCode?: string } | undefined;
    return { code: e.code, message: e.message, errorCode: turnkey?.turnkeyErrorCode, field: bad?.fieldViolations?.[0]?.field };
  }
  throw new Error("expected a refusal");
}

describe("requireNonEmpty", () => {
  it("names the list by its last segment and points at the whole field", () => {
    expect(() => requireNonEmpty([1], "parameters.walletIds")).not.toThrow();
    expect(refusal(() => requireNonEmpty([], "parameters.walletIds"))).toMatchObject({ code: 3, message: "walletIds must not be empty", field: "parameters.walletIds" });
  });
});

describe("requireExported", () => {
  const items = [
    { what: "wallet a", exported: true },
    { what: "wallet b", exported: false },
    { what: "wallet c", exported: false },
  ];

  it("refuses at the first one never exported, unless deleteWithoutExport", () => {
    expect(refusal(() => requireExported(items, undefined))).toEqual({
      code: 3,
      message: "wallet b has not been exported; export it first or set deleteWithoutExport to delete it anyway",
      errorCode: "WALLET_ACCOUNT_NOT_EXPORTED",
      field: "parameters.deleteWithoutExport",
    });
    expect(() => requireExported(items, true)).not.toThrow();
    expect(() => requireExported(items.slice(0, 1), false)).not.toThrow();
  });
});
