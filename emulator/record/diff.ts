/**
 * The differences between a recorded answer and the replay's that matter: the HTTP status;
 * for errors the code, the message (ids, hex, numbers and secrets masked on both sides) and
 * the `turnkeyErrorCode`s; for activities the status, the type and the result member; and
 * the answer's shape (fields, JSON types, enum values: contracts/harness/compare.ts, which
 * `emulator conformance --compare` uses too). Values that must differ are not compared.
 */
import { diffShapes, shapeOf } from "../../contracts/harness/compare.js";

export type DriftKind = "status" | "code" | "message" | "turnkeyErrorCode" | "activityStatus" | "activityType" | "resultMember" | "missing" | "extra" | "type" | "enum" | "value";

export type Drift = { kind: DriftKind; path: string; recorded: unknown; replayed: unknown };

export type Answer = { status: number; body: unknown };

/** Pairs the elements of a recorded list with the replay's (mapping.ts): `byIdentity` when they pair by their ids. */
export type Align = (recorded: unknown[], replayed: unknown[]) => { pairs: [number, number][]; byIdentity: boolean };

/**
 * Both answers cut down to what can be compared: a list whose elements pair by identity keeps
 * its paired elements only (an element one side lacks is data, not shape); any other list is
 * kept whole, its elements' shapes merged.
 */
export function comparable(recorded: unknown, replayed: unknown, align?: Align): [unknown, unknown] {
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    const a = align?.(recorded, replayed);
    if (!a?.byIdentity) return [recorded, replayed];
    const both = a.pairs.map(([i, j]) => comparable(recorded[i], replayed[j], align));
    return [both.map((b) => b[0]), both.map((b) => b[1])];
  }
  if (isObj(recorded) && isObj(replayed)) {
    const r: Record<string, unknown> = { ...recorded };
    const p: Record<string, unknown> = { ...replayed };
    for (const k of Object.keys(recorded)) if (k in replayed) [r[k], p[k]] = comparable(recorded[k], replayed[k], align);
    return [r, p];
  }
  return [recorded, replayed];
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

/** An error message with what differs between deployments (or identifies someone) masked: ids, hex, base58, numbers, emails, secrets. */
export function maskMessage(m: string): string {
  return m
    .replace(/<redacted [^>]+>/g, "<secret>")
    .replace(/[^\s@"'(<]+@[^\s@"')>]+\.[A-Za-z]{2,}/g, "<email>")
    .replace(UUID, "<id>")
    .replace(/\b0x[0-9a-fA-F]+\b/g, "<hex>")
    .replace(/\b[0-9a-fA-F]{16,}\b/g, "<hex>")
    .replace(/\beyJ[\w-]*\.[\w-]*\.[\w-]*/g, "<secret>")
    .replace(/\b[1-9A-HJ-NP-Za-km-z]{25,}\b/g, "<key>")
    .replace(/\d+/g, "<n>");
}

type ErrorBody = { code?: unknown; message?: unknown; details?: { turnkeyErrorCode?: unknown }[] };
type Activity = { status?: unknown; type?: unknown; result?: Record<string, unknown> | null };

const errorCodes = (b: ErrorBody): string[] =>
  (Array.isArray(b.details) ? b.details.map((d) => d?.turnkeyErrorCode).filter((c): c is string => typeof c === "string") : []).sort();
const activityOf = (body: unknown): Activity | undefined => {
  const a = (body as { activity?: unknown } | null)?.activity;
  return a && typeof a === "object" ? (a as Activity) : undefined;
};
const resultMembers = (a: Activity): string[] =>
  Object.entries(a.result ?? {})
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k]) => k)
    .sort();

/** An activity the service had not finished when it answered (it finishes later; the emulator at once). */
const PENDING = "ACTIVITY_STATUS_PENDING";

/** The differences between a recorded answer and the replayed one (empty: they agree). */
export function compareAnswers(recorded: Answer, replayed: Answer, align?: Align): Drift[] {
  const out: Drift[] = [];
  if (recorded.status !== replayed.status) out.push({ kind: "status", path: "(http status)", recorded: recorded.status, replayed: replayed.status });
  if (recorded.status !== 200 || replayed.status !== 200) {
    const a = (recorded.body ?? {}) as ErrorBody;
    const b = (replayed.body ?? {}) as ErrorBody;
    if (recorded.status === 200 || replayed.status === 200) return out; // one answered, one refused: the status says it
    if (a.code !== b.code) out.push({ kind: "code", path: "code", recorded: a.code, replayed: b.code });
    const ma = typeof a.message === "string" ? maskMessage(a.message) : a.message;
    const mb = typeof b.message === "string" ? maskMessage(b.message) : b.message;
    if (ma !== mb) out.push({ kind: "message", path: "message", recorded: ma, replayed: mb });
    const ca = errorCodes(a).join(",");
    const cb = errorCodes(b).join(",");
    if (ca !== cb) out.push({ kind: "turnkeyErrorCode", path: "details[].turnkeyErrorCode", recorded: ca || undefined, replayed: cb || undefined });
    return out;
  }
  const skip = new Set<string>();
  const ra = activityOf(recorded.body);
  const pa = activityOf(replayed.body);
  if (ra && pa) {
    // The service may answer before it finishes; the emulator finishes first. Not a difference in behaviour.
    if (ra.status === PENDING && pa.status !== PENDING) return out;
    if (ra.status !== pa.status) out.push({ kind: "activityStatus", path: "activity.status", recorded: ra.status, replayed: pa.status });
    if (ra.type !== pa.type) out.push({ kind: "activityType", path: "activity.type", recorded: ra.type, replayed: pa.type });
    const rm = resultMembers(ra);
    const pm = resultMembers(pa);
    skip.add("activity.status").add("activity.type");
    if (rm.join() !== pm.join()) {
      out.push({ kind: "resultMember", path: "activity.result", recorded: rm, replayed: pm });
      for (const m of [...rm, ...pm]) skip.add(`activity.result.${m}`);
    }
  }
  const [rb, pb] = comparable(recorded.body, replayed.body, align);
  for (const d of diffShapes(shapeOf(rb), shapeOf(pb))) {
    if ([...skip].some((s) => d.path === s || d.path.startsWith(`${s}.`) || d.path.startsWith(`${s}[`))) continue;
    out.push({ kind: d.kind as DriftKind, path: d.path, recorded: d.a, replayed: d.b });
  }
  return out;
}
