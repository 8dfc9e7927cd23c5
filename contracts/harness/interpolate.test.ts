import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { interpolate, interpolateString, InterpolationError, references, type InterpolationContext } from "./interpolate.js";
import { KeyRing } from "./keys.js";

const ctx = (): InterpolationContext => ({
  vars: { name: "alice" },
  captures: { ids: ["u1", "u2"], obj: { a: { b: 7 } } },
  keys: new KeyRing(),
  org: { id: "org-1", name: "Org", rootUserId: "root-1", rootUserName: "Root" },
  emailDomain: "example.org",
});

describe("interpolation", () => {
  it("keeps the type of a whole-string reference and splices text otherwise", () => {
    const c = ctx();
    expect(interpolateString("${captures.ids}", c)).toEqual(["u1", "u2"]);
    expect(interpolateString("${captures.obj.a.b}", c)).toBe(7);
    expect(interpolateString("${captures.ids[1]}", c)).toBe("u2");
    expect(interpolateString("user ${vars.name} in ${org.id}", c)).toBe("user alice in org-1");
    expect(interpolate({ "k-${vars.name}": ["${org.rootUserId}", 3, true] }, c)).toEqual({ "k-alice": ["root-1", 3, true] });
  });
  it("generates fresh values per occurrence", () => {
    const c = ctx();
    const [a, b] = [interpolateString("${uuid}", c), interpolateString("${uuid}", c)];
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
    expect(interpolateString("${randomEmail}", c)).toMatch(/^conformance\+[0-9a-f]{8}@example\.org$/);
    expect(interpolateString("${randomPhone}", c)).toMatch(/^\+141555501\d\d$/);
    expect(Number(interpolateString("${now}", c))).toBeGreaterThan(1.7e12);
  });
  it("makes one P-256 key per name and run, a valid compressed point", () => {
    const c = ctx();
    const k = interpolateString("${keys.alice.publicKey}", c) as string;
    expect(interpolateString("${keys.alice.publicKey}", c)).toBe(k);
    expect(interpolateString("${keys.bob.publicKey}", c)).not.toBe(k);
    expect(k).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(() => p256.Point.fromHex(k)).not.toThrow();
    // The uncompressed form is the same point (noble decodes both).
    const u = interpolateString("${keys.alice.publicKeyUncompressed}", c) as string;
    expect(u).toMatch(/^04[0-9a-f]{128}$/);
    expect(p256.Point.fromHex(u).equals(p256.Point.fromHex(k))).toBe(true);
  });
  it("gives a private key only where invariants are interpolated", () => {
    const c = ctx();
    expect(() => interpolateString("${keys.a.privateKey}", c)).toThrow(/only available in invariant args/);
    const priv = interpolateString("${keys.a.privateKey}", { ...c, secrets: true }) as string;
    expect(Buffer.from(p256.getPublicKey(Buffer.from(priv, "hex"), true)).toString("hex")).toBe(interpolateString("${keys.a.publicKey}", c));
  });
  it("names what is missing", () => {
    const c = ctx();
    expect(() => interpolateString("${captures.nope}", c)).toThrow(/no capture named "nope"/);
    expect(() => interpolateString("${org.color}", c)).toThrow(InterpolationError);
    expect(() => interpolateString("${keys.a.secret}", c)).toThrow(/publicKey/);
    expect(() => interpolateString("${whatever}", c)).toThrow(/unknown reference/);
  });
  it("lists references for load-time checks", () => {
    expect(references({ a: "${x} and ${captures.y}", "${vars.k}": ["${org.id}"] })).toEqual(["x", "captures.y", "vars.k", "org.id"]);
  });
});
