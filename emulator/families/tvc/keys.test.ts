import { describe, expect, it } from "vitest";
import { createECDH } from "node:crypto";
import { parseHexSignature, parseSha256Digest, parseTvcPublicKey } from "./keys.js";

// Keys made by OpenSSL (node:crypto), independent of the curve library the module uses.
const opensslPoint = (form: "uncompressed" | "compressed" = "uncompressed") => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return ecdh.getPublicKey("hex", form);
};

describe("parseTvcPublicKey", () => {
  it("accepts a QOS pair (encryption ‖ signing), a single point, compressed or not, and lower-cases it", () => {
    const pair = opensslPoint() + opensslPoint();
    expect(parseTvcPublicKey(pair.toUpperCase(), "k")).toBe(pair);
    const one = opensslPoint();
    expect(parseTvcPublicKey(`0x${one}`, "k")).toBe(one);
    const compressed = opensslPoint("compressed");
    expect(parseTvcPublicKey(compressed, "k")).toBe(compressed);
  });

  it("refuses non-hex, wrong lengths and points off the curve, naming the field", () => {
    const bad = (key: string) => {
      try {
        parseTvcPublicKey(key, "parameters.quorumPublicKey");
      } catch (e) {
        return e as { message: string; path: string };
      }
      throw new Error("accepted");
    };
    expect(bad("nothex")).toMatchObject({ path: "parameters.quorumPublicKey", message: expect.stringMatching(/hex-encoded/) });
    expect(bad("abcd").message).toMatch(/33, 65 or 130/);
    const point = opensslPoint();
    const offCurve = point.slice(0, -2) + ((parseInt(point.slice(-2), 16) ^ 1).toString(16).padStart(2, "0"));
    expect(bad(offCurve).message).toMatch(/not a point on the curve/);
    expect(bad(point + offCurve).message).toMatch(/not a point on the curve/);
  });
});

describe("digests and signatures", () => {
  it("reads a SHA-256 digest with or without the sha256: prefix", () => {
    const d = "AB".repeat(32);
    expect(parseSha256Digest(d, "f")).toBe(d.toLowerCase());
    expect(parseSha256Digest(`sha256:${d}`, "f")).toBe(d.toLowerCase());
    expect(() => parseSha256Digest("ab".repeat(31), "f")).toThrow(/SHA-256 digest/);
  });

  it("reads a hex signature", () => {
    expect(parseHexSignature("0xABcd", "f")).toBe("abcd");
    expect(() => parseHexSignature("", "f")).toThrow(/non-empty hex/);
    expect(() => parseHexSignature("abc", "f")).toThrow(/non-empty hex/);
  });
});
