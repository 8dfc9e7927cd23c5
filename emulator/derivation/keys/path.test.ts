import { describe, expect, it } from "vitest";
import { InputError } from "../../core/input-error.js";
import { formatPath, HARDENED_OFFSET, normalizePath, parsePath } from "./path.js";

const H = HARDENED_OFFSET;

describe("parsePath", () => {
  it("parses hardened markers ' h H", () => {
    expect(parsePath("m/44'/60'/0'/0/0")).toEqual([44 + H, 60 + H, H, 0, 0]);
    expect(parsePath("m/44h/60H/0'/1/2")).toEqual([44 + H, 60 + H, H, 1, 2]);
    expect(parsePath("m")).toEqual([]);
    expect(parsePath("m/2147483647'")).toEqual([0xffffffff]);
  });

  it.each([
    ["", /empty/],
    ["44'/60'", /must start with "m\/"/],
    ["M/44'", /must start with "m\/"/],
    ["m/", /segment 1 \(""\)/],
    ["m/44'//0", /segment 2 \(""\)/],
    ["m/44'/x", /segment 2 \("x"\)/],
    ["m/-1", /segment 1 \("-1"\)/],
    ["m/1''", /segment 1 \("1''"\)/],
    ["m/0x10", /segment 1 \("0x10"\)/],
    ["m/ 1", /segment 1/],
    ["m/2147483648", /segment 1 \("2147483648"\) is out of range/],
    ["m/99999999999", /segment 1/],
  ])("rejects %j with an InputError naming the segment", (path, re) => {
    let err: unknown;
    try {
      parsePath(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).path).toBe("path");
    expect((err as InputError).message).toMatch(re);
  });

  it("rejects paths deeper than 255", () => {
    expect(() => parsePath("m" + "/0".repeat(256))).toThrow(/deeper/);
    expect(parsePath("m" + "/0".repeat(255))).toHaveLength(255);
  });

  it("formats and normalises", () => {
    expect(formatPath([44 + H, 0, 5])).toBe("m/44'/0/5");
    expect(normalizePath("m/44h/060H/0")).toBe("m/44'/60'/0");
  });
});
