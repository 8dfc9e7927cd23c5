import { describe, expect, it } from "vitest";
import { hexToBytes } from "@noble/hashes/utils.js";
import { addressFor } from "./index.js";

// Published vectors from @buildonspark/spark-sdk's own tests (src/tests/address.test.ts):
// identity public key 0353908b…3213 <-> this regtest address.
const REGTEST_KEY = "0353908bac090ba741de6147a540a665537006911590f93249b2823dbe187d3213";
const REGTEST_ADDRESS = "sparkrt1pgssx5us3wkqjza8g80xz3a9gznx25msq6g3ty8exfym9q3ahcv86vsnxxdy83";

describe("ADDRESS_FORMAT_SPARK_* (oracle: Spark SDK published vectors)", () => {
  it("regtest: identity key -> sparkrt1… exactly as the Spark SDK test expects", () => {
    expect(addressFor("ADDRESS_FORMAT_SPARK_REGTEST", "CURVE_SECP256K1", hexToBytes(REGTEST_KEY))).toBe(REGTEST_ADDRESS);
  });

  it("mainnet uses HRP spark with the same payload", () => {
    const addr = addressFor("ADDRESS_FORMAT_SPARK_MAINNET", "CURVE_SECP256K1", hexToBytes(REGTEST_KEY));
    expect(addr.startsWith("spark1")).toBe(true);
    // Same data part as the regtest vector; only HRP and checksum differ.
    expect(addr.slice("spark1".length, -6)).toBe(REGTEST_ADDRESS.slice("sparkrt1".length, -6));
  });

  it("rejects ed25519 keys", () => {
    expect(() => addressFor("ADDRESS_FORMAT_SPARK_MAINNET", "CURVE_ED25519", new Uint8Array(32))).toThrow(
      /does not support CURVE_ED25519/,
    );
  });
});
