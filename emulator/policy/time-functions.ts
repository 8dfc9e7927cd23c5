/**
 * The language's time functions: `Timestamp('<rfc3339>')` and
 * `CronSpan('<cron>', '<duration>', '<IANA zone>')`.
 *
 * Parsing helpers return a string describing the problem instead of throwing, so the
 * parser can report it with the argument's position.
 */
/** A parsed `CronSpan`: the fire times of its cron expression, its duration and zone (cron-span.ts evaluates it). */
export interface CronSpanSpec {
  minutes: number[];
  hours: number[];
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  domRestricted: boolean;
  dowRestricted: boolean;
  durationMinutes: number;
  timeZone: string;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]00:00)$/;

/** Nanoseconds since the Unix epoch, or a problem description. Only a zero UTC offset is accepted. */
export function parseRfc3339(text: string): bigint | string {
  const m = RFC3339.exec(text);
  if (!m) {
    if (/[+-]\d{2}:\d{2}$/.test(text)) return "Timestamp accepts only a zero UTC offset (Z or +00:00)";
    return "Timestamp expects an RFC 3339 date-time such as '2026-03-01T00:00:00Z'";
  }
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(ms);
  if (
    month < 1 ||
    month > 12 ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    back.getUTCFullYear() !== year ||
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== day
  ) {
    return "Timestamp has an out-of-range date or time field";
  }
  const frac = BigInt((m[7] ?? "").padEnd(9, "0") || "0");
  return BigInt(ms) * 1_000_000n + frac;
}

interface CronField {
  values: number[];
  restricted: boolean;
}

function parseCronField(text: string, min: number, max: number, name: string): CronField | string {
  if (text === "*") return { values: range(min, max), restricted: false };
  const set = new Set<number>();
  for (const item of text.split(",")) {
    const m = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(item);
    if (!m) return `cron ${name} field '${text}' is not supported (use numbers, ranges, lists or *)`;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (a < min || b > max || a > b) return `cron ${name} field '${text}' is out of range ${min}-${max}`;
    for (let v = a; v <= b; v++) set.add(v);
  }
  return { values: [...set].sort((x, y) => x - y), restricted: true };
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let v = a; v <= b; v++) out.push(v);
  return out;
}

const MAX_DURATION_MINUTES = 7 * 24 * 60;

function parseDuration(text: string): number | string {
  const m = /^(?:(\d{1,5})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?$/.exec(text);
  if (!m || text === "") return `duration '${text}' must be whole days/hours/minutes such as '8h', '90m' or '1d12h'`;
  const minutes = Number(m[1] ?? 0) * 1440 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  if (minutes <= 0 || minutes > MAX_DURATION_MINUTES) return `duration '${text}' must be greater than zero and at most 7 days`;
  return minutes;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(tz: string): Intl.DateTimeFormat | undefined {
  let f = formatters.get(tz);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    return undefined;
  }
  if (formatters.size > 500) formatters.clear();
  formatters.set(tz, f);
  return f;
}

export function parseCronSpan(cron: string, duration: string, tz: string): CronSpanSpec | { error: string; arg: 0 | 1 | 2 } {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return { error: "cron expression must have 5 fields (minute hour day-of-month month day-of-week)", arg: 0 };
  const limits: [number, number, string][] = [
    [0, 59, "minute"],
    [0, 23, "hour"],
    [1, 31, "day-of-month"],
    [1, 12, "month"],
    [0, 6, "day-of-week"],
  ];
  const parsed: CronField[] = [];
  for (let i = 0; i < 5; i++) {
    const [lo, hi, name] = limits[i]!;
    const f = parseCronField(fields[i]!, lo, hi, name);
    if (typeof f === "string") return { error: f, arg: 0 };
    parsed.push(f);
  }
  const minutes = parseDuration(duration);
  if (typeof minutes === "string") return { error: minutes, arg: 1 };
  if (tz === "" || !formatterFor(tz)) return { error: `unknown time zone '${tz}'`, arg: 2 };
  const [mi, ho, dom, mo, dow] = parsed as [CronField, CronField, CronField, CronField, CronField];
  return {
    minutes: mi.values,
    hours: ho.values,
    daysOfMonth: new Set(dom.values),
    months: new Set(mo.values),
    daysOfWeek: new Set(dow.values),
    domRestricted: dom.restricted,
    dowRestricted: dow.restricted,
    durationMinutes: minutes,
    timeZone: tz,
  };
}

/** Offset (local wall clock minus UTC) in ms of `tz` at instant `ms`. */
export function zoneOffsetMs(ms: number, tz: string): number {
  const f = formatterFor(tz);
  if (!f) throw new Error(`unknown time zone ${tz}`);
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instants at which a local wall-clock time occurs in `tz`: none inside a
 * spring-forward gap, two inside a fall-back overlap, otherwise one.
 */
export function wallTimeInstants(wallMs: number, tz: string): number[] {
  const out: number[] = [];
  const offsets = new Set([zoneOffsetMs(wallMs - 43_200_000, tz), zoneOffsetMs(wallMs + 43_200_000, tz)]);
  for (const o of offsets) {
    const t = wallMs - o;
    if (zoneOffsetMs(t, tz) === o) out.push(t);
  }
  return out.sort((a, b) => a - b);
}
