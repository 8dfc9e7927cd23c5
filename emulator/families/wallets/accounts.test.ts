/** The account checks speak the library's InputError, at paths relative to the account or the list; the request boundary names the field. */
import { describe, expect, it } from "vitest";
import { InputError } from "../../core/input-error.js";
import { TurnkeyError, withField } from "../../core/errors.js";
import { checkAccountParams, checkNoRepeatedPaths } from "./accounts.js";

const ACCOUNT = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" };

describe("account checks", () => {
  it("throw InputError at paths relative to the account, or to the list", () => {
    const at = (path: string) => expect.objectContaining({ constructor: InputError, path });
    expect(() => checkAccountParams({ ...ACCOUNT, path: "44'/60'" })).toThrow(at("path"));
    expect(() => checkAccountParams({ ...ACCOUNT, curve: "CURVE_ED25519" })).toThrow(at("curve"));
    // m/44h/... and m/44'/... are the same path.
    expect(() => checkNoRepeatedPaths([ACCOUNT, { ...ACCOUNT, path: "m/44h/60h/0h/0/0" }].map(checkAccountParams))).toThrow(at("[1].path"));
  });

  it("a repeated path answers 400 naming parameters.accounts[1].path at the request boundary", () => {
    let e: TurnkeyError | undefined;
    try {
      withField("parameters.accounts", () => checkNoRepeatedPaths([ACCOUNT, ACCOUNT].map(checkAccountParams)));
    } catch (thrown) {
      e = thrown as TurnkeyError;
    }
    expect(e).toBeInstanceOf(TurnkeyError);
    expect(e!.httpStatus).toBe(400);
    expect(e!.toJSON()).toMatchObject({
      code: 3,
      message: `invalid path: ${ACCOUNT.path} is used twice for ADDRESS_FORMAT_ETHEREUM in this request`,
      details: [{ turnkeyErrorCode: "REQUEST_INVALID" }, { fieldViolations: [{ field: "parameters.accounts[1].path" }] }],
    });
  });
});
