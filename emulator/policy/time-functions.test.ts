import { describe, expect, it } from "vitest";
import { cronSpanActive } from "./cron-span.js";
import { parseCronSpan, parseRfc3339, wallTimeInstants } from "./time-functions.js";

const span = (cron: string, duration: string, tz: string) => {
  const s = parseCronSpan(cron, duration, tz);
  if ("error" in s) throw new Error(s.error);
  return s;
};
const at = (iso: string) => Date.parse(iso);

describe("Timestamp", () => {
  it("parses RFC 3339 with zero offset to exact nanoseconds", () => {
    expect(parseRfc3339("1970-01-01T00:00:01Z")).toBe(1_000_000_000n);
    expect(parseRfc3339("2026-03-01T00:00:00.5+00:00")).toBe(BigInt(Date.parse("2026-03-01T00:00:00.500Z")) * 1_000_000n);
    expect(typeof parseRfc3339("2026-03-01T00:00:00+05:30")).toBe("string");
    expect(typeof parseRfc3339("2026-03-01 00:00:00Z")).toBe("string");
  });
});

describe("CronSpan", () => {
  // Weekdays 09:00–17:00 New York time. 2026-03-06 is a Friday (EST, UTC-5);
  // 2026-03-09 is a Monday after the 2026-03-08 spring-forward (EDT, UTC-4).
  const weekdays = span("0 9 * * 1-5", "8h", "America/New_York");

  it("is active inside the window and inactive outside, in local time", () => {
    expect(cronSpanActive(weekdays, at("2026-03-06T14:00:00Z"))).toBe(true); // 09:00 EST
    expect(cronSpanActive(weekdays, at("2026-03-06T13:59:59Z"))).toBe(false); // 08:59:59 EST
    expect(cronSpanActive(weekdays, at("2026-03-06T21:59:59Z"))).toBe(true); // 16:59:59 EST
    expect(cronSpanActive(weekdays, at("2026-03-06T22:00:00Z"))).toBe(false); // 17:00 EST, window is half-open
    expect(cronSpanActive(weekdays, at("2026-03-07T15:00:00Z"))).toBe(false); // Saturday
  });

  it("follows daylight saving time", () => {
    expect(cronSpanActive(weekdays, at("2026-03-09T13:00:00Z"))).toBe(true); // 09:00 EDT
    expect(cronSpanActive(weekdays, at("2026-03-09T12:59:00Z"))).toBe(false); // 08:59 EDT
  });

  it("windows cross midnight and span days", () => {
    const nightly = span("30 22 * * *", "1d12h", "UTC");
    expect(cronSpanActive(nightly, at("2026-01-02T10:29:00Z"))).toBe(true);
    const monthly = span("0 0 1 * *", "90m", "Europe/Berlin");
    expect(cronSpanActive(monthly, at("2026-01-31T23:00:00Z"))).toBe(true); // 00:00 CET on Feb 1
    expect(cronSpanActive(monthly, at("2026-02-01T00:30:00Z"))).toBe(false); // 01:30 CET
  });

  it("ORs day-of-month and day-of-week when both are restricted", () => {
    const s = span("0 12 13 * 5", "1h", "UTC"); // the 13th or any Friday
    expect(cronSpanActive(s, at("2026-01-13T12:30:00Z"))).toBe(true); // Tuesday the 13th
    expect(cronSpanActive(s, at("2026-01-16T12:30:00Z"))).toBe(true); // Friday the 16th
    expect(cronSpanActive(s, at("2026-01-14T12:30:00Z"))).toBe(false);
  });

  it("maps wall times across DST gaps and overlaps", () => {
    // 02:30 on 2026-03-08 does not exist in New York; 01:30 on 2026-11-01 happens twice.
    expect(wallTimeInstants(Date.UTC(2026, 2, 8, 2, 30), "America/New_York")).toEqual([]);
    expect(wallTimeInstants(Date.UTC(2026, 10, 1, 1, 30), "America/New_York")).toEqual([at("2026-11-01T05:30:00Z"), at("2026-11-01T06:30:00Z")]);
  });
});
