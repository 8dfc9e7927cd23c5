import { describe, expect, it } from "vitest";
import { jsonText, responseText } from "./json-text.js";

describe("jsonText and responseText", () => {
  const view = { id: "a", status: "ACTIVITY_STATUS_COMPLETED", result: { signRawPayloadResult: { r: "00", s: "01", v: "1b" } }, votes: [{ user: { userName: "<root> & \"co\"" } }], failure: undefined };

  it("jsonText is JSON.stringify, made once per object", () => {
    const text = jsonText(view);
    expect(text).toBe(JSON.stringify(view));
    expect(jsonText(view)).toBe(text);
    expect(jsonText({ ...view })).toBe(text);
  });

  it("responseText is byte for byte JSON.stringify of the body, with or without kept member texts", () => {
    jsonText(view);
    const bodies: unknown[] = [
      { activity: view },
      { activity: view, extra: undefined, fn: () => 1, n: 1, s: "é\u2028", nested: { view }, list: [view], nil: null },
      { other: { a: 1 } },
      [view],
      "text",
      null,
      { toJSON: () => ({ replaced: true }), activity: view },
      Object.assign(Object.create({ inherited: 1 }), { activity: view }),
    ];
    for (const body of bodies) expect(responseText(body)).toBe(JSON.stringify(body));
  });

  it("reuses the kept text (not a fresh serialization) of a top-level member", () => {
    const kept = { a: 1 };
    jsonText(kept);
    // Changing a rendering after its text was made is not allowed; doing it shows which text is sent.
    kept.a = 2;
    expect(responseText({ activity: kept })).toBe('{"activity":{"a":1}}');
    expect(JSON.parse(responseText({ activity: kept, b: [1] }))).toEqual({ activity: { a: 1 }, b: [1] });
  });
});
