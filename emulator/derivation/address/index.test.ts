import { describe, expect, it } from "vitest";
import * as sdk from "@turnkey/sdk-server";
import { InputError } from "../../core/input-error.js";
import { ADDRESS_FORMATS, addressFor, curvesFor, defaultPathFor } from "./index.js";

type SdkAccount = { curve: string; path: string; addressFormat: string };
const config = sdk.addressFormatConfig as Record<string, { defaultAccounts: SdkAccount[] | null }>;

function thrown(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected a throw");
}

describe("format registry (oracle: @turnkey/sdk-server addressFormatConfig / default*AccountAtIndex)", () => {
  it("lists the same 38 formats as the SDK", () => {
    expect(ADDRESS_FORMATS).toHaveLength(38);
    expect([...ADDRESS_FORMATS].sort()).toEqual(Object.keys(config).sort());
  });

  it("default paths and curves equal the SDK's DEFAULT_*_ACCOUNTS", () => {
    let checked = 0;
    for (const [format, { defaultAccounts }] of Object.entries(config)) {
      if (!defaultAccounts) continue;
      const [acct] = defaultAccounts;
      expect(defaultPathFor(format), format).toBe(acct!.path);
      expect(curvesFor(format), format).toContain(acct!.curve);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(34);
  });

  it("places the account index where the SDK helpers do", () => {
    const helpers: [string, (i: number) => SdkAccount][] = [
      ["ADDRESS_FORMAT_ETHEREUM", sdk.defaultEthereumAccountAtIndex],
      ["ADDRESS_FORMAT_SOLANA", sdk.defaultSolanaAccountAtIndex],
      ["ADDRESS_FORMAT_TRON", sdk.defaultTronAccountAtIndex],
      ["ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH", sdk.defaultBitcoinTestnetP2WSHAccountAtIndex],
      ["ADDRESS_FORMAT_XLM", sdk.defaultXlmAccountAtIndex],
      ["ADDRESS_FORMAT_TON_V4R2", sdk.defaultTonV4r2AccountAtIndex],
      ["ADDRESS_FORMAT_XRP", sdk.defaultXrpAccountAtIndex],
    ];
    for (const [format, helper] of helpers) {
      for (const i of [1, 7, 42]) expect(defaultPathFor(format, i)).toBe(helper(i).path);
    }
  });

  it("formats without an SDK default still get a path", () => {
    expect(defaultPathFor("ADDRESS_FORMAT_TON_V5R1")).toBe("m/44'/607'/0'/0'/0'");
    expect(defaultPathFor("ADDRESS_FORMAT_COMPRESSED")).toBe("m/0'/0");
    expect(defaultPathFor("ADDRESS_FORMAT_UNCOMPRESSED", 2)).toBe("m/2'/0");
  });
});

describe("addressFor errors", () => {
  it("curve that does not fit the format -> InputError naming both", () => {
    const e = thrown(() => addressFor("ADDRESS_FORMAT_SOLANA", "CURVE_SECP256K1", new Uint8Array(33)));
    expect(e.kind).toBe("invalid");
    expect(e.path).toBe("curve");
    expect(e.message).toBe(
      "invalid curve: address format ADDRESS_FORMAT_SOLANA does not support CURVE_SECP256K1; supported: CURVE_ED25519",
    );
    expect(thrown(() => addressFor("ADDRESS_FORMAT_ETHEREUM", "CURVE_P256", new Uint8Array(33))).message).toMatch(
      /does not support CURVE_P256/,
    );
    expect(thrown(() => addressFor("ADDRESS_FORMAT_TON_V5R1", "CURVE_SECP256K1", new Uint8Array(33))).path).toBe("curve");
  });

  it("unknown format or curve -> InputError", () => {
    expect(thrown(() => addressFor("ADDRESS_FORMAT_NOPE", "CURVE_SECP256K1", new Uint8Array(33))).message).toBe(
      'invalid address format: "ADDRESS_FORMAT_NOPE"',
    );
    // The format is curvesFor's whole input (no path); addressFor names its argument.
    expect(thrown(() => curvesFor("ETHEREUM")).path).toBeUndefined();
    expect(thrown(() => addressFor("ETHEREUM", "CURVE_SECP256K1", new Uint8Array(33))).path).toBe("addressFormat");
    expect(thrown(() => addressFor("ADDRESS_FORMAT_COMPRESSED", "CURVE_X" as never, new Uint8Array(33))).message).toMatch(
      /invalid curve/,
    );
    expect(thrown(() => defaultPathFor("ADDRESS_FORMAT_ETHEREUM", -1)).path).toBe("index");
  });

  it("malformed public keys -> InputError", () => {
    expect(thrown(() => addressFor("ADDRESS_FORMAT_ETHEREUM", "CURVE_SECP256K1", new Uint8Array(32))).message).toMatch(
      /expected 33 or 65 bytes, got 32/,
    );
    expect(thrown(() => addressFor("ADDRESS_FORMAT_ETHEREUM", "CURVE_SECP256K1", Uint8Array.of(2, ...new Uint8Array(32).fill(0xff)))).message).toMatch(
      /not a point/,
    );
    expect(thrown(() => addressFor("ADDRESS_FORMAT_SOLANA", "CURVE_ED25519", new Uint8Array(33))).message).toMatch(
      /expected 32 bytes/,
    );
  });
});
