import { describe, expect, it } from "vitest";
import { isMarker, looksLikeMnemonic, parseMarker, Redactor } from "./redact.js";

const JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";

describe("Redactor", () => {
  it("replaces a secret field by a marker of its kind and length, the same marker each time it is met", () => {
    const r = new Redactor();
    const first = r.json({ otpId: "o-1", otpCode: "123456" }) as Record<string, string>;
    expect(first).toEqual({ otpId: "o-1", otpCode: "<redacted otpCode len=6 #1>" });
    const again = r.json({ parameters: { otpCode: "123456" }, other: { otpCode: "654321" } }) as { parameters: { otpCode: string }; other: { otpCode: string } };
    expect(again.parameters.otpCode).toBe(first.otpCode);
    expect(again.other.otpCode).toBe("<redacted otpCode len=6 #2>");
  });

  it("knows secrets by their look in any field: a JWT, a BIP-39 mnemonic", () => {
    const r = new Redactor();
    const mnemonic = "test test test test test test test test test test test junk";
    expect(r.json({ note: JWT, words: mnemonic, prose: "this is not a mnemonic at all even with twelve words in it" })).toEqual({
      note: `<redacted jwt len=${JWT.length} #1>`,
      words: `<redacted mnemonic len=${mnemonic.length} #2>`,
      prose: "this is not a mnemonic at all even with twelve words in it",
    });
  });

  it("redacts every string of a secret list and leaves the value it was given unchanged", () => {
    const r = new Redactor();
    const body = { secretPayloads: ["aa", "bb"], exportBundle: "{}", credentialBundle: "x" };
    const out = r.json(body);
    expect(out).toEqual({ secretPayloads: ["<redacted encryptedSecret len=2 #1>", "<redacted encryptedSecret len=2 #2>"], exportBundle: "<redacted exportBundle len=2 #3>", credentialBundle: "<redacted credentialBundle len=1 #4>" });
    expect(body.secretPayloads).toEqual(["aa", "bb"]);
  });

  it("replaces a known secret where another string quotes it as a whole word, and only there", () => {
    const r = new Redactor();
    r.json({ verificationToken: JWT, otpCode: "482913" });
    expect(r.json({ message: `token ${JWT} was used; code 482913 is wrong`, createdAt: "17482913000" })).toEqual({
      message: `token <redacted verificationToken len=${JWT.length} #1> was used; code <redacted otpCode len=6 #2> is wrong`,
      createdAt: "17482913000",
    });
  });

  it("learns the secrets of a whole value before replacing, so a message before the field is covered", () => {
    const r = new Redactor();
    expect(r.json({ message: `sent ${JWT}`, session: JWT })).toEqual({ message: `sent <redacted sessionJwt len=${JWT.length} #1>`, session: `<redacted sessionJwt len=${JWT.length} #1>` });
  });

  it("leaves a marker as it is (a cassette redacted twice is unchanged)", () => {
    const r = new Redactor();
    const once = r.json({ session: JWT });
    expect(r.json(once)).toEqual(once);
    expect(r.count).toBe(1);
  });
});

describe("markers", () => {
  it("parse back into kind, length and number", () => {
    expect(parseMarker("<redacted otpCode len=6 #3>")).toEqual({ kind: "otpCode", length: 6, ref: 3 });
    expect(parseMarker("otpCode 6")).toBeUndefined();
    expect(isMarker("<redacted jwt len=10 #1>")).toBe(true);
  });

  it("a mnemonic is 12 to 24 words of the list, in threes", () => {
    expect(looksLikeMnemonic("abandon ".repeat(11) + "about")).toBe(true);
    expect(looksLikeMnemonic("abandon ".repeat(12) + "about")).toBe(false);
    expect(looksLikeMnemonic("zzz ".repeat(11) + "about")).toBe(false);
  });
});
