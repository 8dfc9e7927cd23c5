/**
 * Values that must differ between the recording and the replay (ids, addresses, fingerprints,
 * public keys, tokens) are mapped, never compared: each recorded value an answer introduced is
 * paired with the value the replay's answer holds in the same place, and every later request
 * sends the replay's value where the recording sent its own.
 *
 * Pairing walks both answers together. Objects pair field by field; arrays of objects pair
 * each recorded element with the replayed one that agrees with it most (the same names, paths
 * and formats, ids already mapped), so a list in another order still pairs; other arrays pair
 * by position. Times, numbers, enum values and equal values are not paired.
 */
import { isEnumValue } from "../../contracts/harness/compare.js";

/** Fields holding times or counters: they differ by nature and identify nothing. */
const UNPAIRED_FIELDS = new Set(["seconds", "nanos", "createdAt", "updatedAt", "timestampMs", "expiresAt", "expirationSeconds"]);
/** A mapped value this long is replaced inside longer strings too (a policy condition naming an address or id). */
const MIN_EMBEDDED = 20;

export class ValueMap {
  private readonly pairs = new Map<string, string>();

  get(recorded: string): string | undefined {
    return this.pairs.get(recorded);
  }

  get size(): number {
    return this.pairs.size;
  }

  /** Pairs a recorded value with the replay's (the first pairing of a value holds). */
  set(recorded: string, replayed: string): void {
    if (recorded === replayed || this.pairs.has(recorded)) return;
    this.pairs.set(recorded, replayed);
    // An EVM address is written checksummed in answers and often lower case in policies.
    if (/^0x[0-9a-fA-F]{40}$/.test(recorded) && !this.pairs.has(recorded.toLowerCase())) this.pairs.set(recorded.toLowerCase(), replayed.toLowerCase());
  }

  /** A request value with every recorded value replaced by the replay's. */
  apply(value: unknown): unknown {
    if (typeof value === "string") return this.applyText(value);
    if (Array.isArray(value)) return value.map((v) => this.apply(v));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.apply(v)]));
    return value;
  }

  private applyText(s: string): string {
    const whole = this.pairs.get(s);
    if (whole !== undefined) return whole;
    if (s.length <= MIN_EMBEDDED) return s;
    let out = s;
    for (const [from, to] of this.pairs) if (from.length >= MIN_EMBEDDED && out.includes(from)) out = out.split(from).join(to);
    return out;
  }

  /** Learns the pairs a recorded answer and the replay's answer to the same request show. */
  learn(recorded: unknown, replayed: unknown, key?: string): void {
    if (key && UNPAIRED_FIELDS.has(key)) return;
    if (typeof recorded === "string" && typeof replayed === "string") {
      if (recorded !== replayed && !/^\d+$/.test(recorded) && !isEnumValue(recorded)) this.set(recorded, replayed);
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(replayed)) {
      for (const [i, j] of this.align(recorded, replayed).pairs) this.learn(recorded[i], replayed[j], key);
      return;
    }
    if (isObject(recorded) && isObject(replayed)) {
      for (const [k, v] of Object.entries(recorded)) if (k in replayed) this.learn(v, replayed[k], k);
    }
  }

  /**
   * Index pairs of two arrays that stand for the same things. Objects with an identity (an id,
   * fingerprint or address unique in the list) pair first by it, equal or already mapped; the
   * rest (things the answer introduces) pair by agreement (the same names, paths, formats),
   * unless `known` asks for identities known before only: a listing may hold something the
   * other side lacks (a policy only one side has, an activity one side refused), which must
   * not be compared with another. Anything but objects pairs by position.
   */
  align(recorded: unknown[], replayed: unknown[], known = false): { pairs: [number, number][]; byIdentity: boolean } {
    if (!recorded.every(isObject) || !replayed.every(isObject)) {
      return { pairs: recorded.length === replayed.length ? recorded.map((_, i) => [i, i]) : [], byIdentity: false };
    }
    const rs = recorded as Record<string, unknown>[];
    const ps = replayed as Record<string, unknown>[];
    const keys = identityKeys(rs);
    const used = new Set<number>();
    const pairs: [number, number][] = [];
    const paired = new Set<number>();
    const pair = (i: number, j: number) => {
      used.add(j);
      paired.add(i);
      pairs.push([i, j]);
    };
    rs.forEach((r, i) => {
      const j = keys.length ? ps.findIndex((p, j) => !used.has(j) && keys.some((k) => typeof r[k] === "string" && (p[k] === r[k] || this.pairs.get(r[k]) === p[k]))) : -1;
      if (j >= 0) pair(i, j);
    });
    if (known && keys.length) return { pairs, byIdentity: true };
    rs.forEach((r, i) => {
      if (paired.has(i)) return;
      let best = -1;
      let bestScore = 0;
      ps.forEach((p, j) => {
        if (used.has(j)) return;
        const s = this.agreement(r, p);
        if (s > bestScore) [best, bestScore] = [j, s];
      });
      // Nothing agrees: the same position, when the lists are as long.
      if (best < 0 && rs.length === ps.length && !used.has(i)) best = i;
      if (best >= 0) pair(i, best);
    });
    return { pairs: pairs.sort((a, b) => a[0] - b[0]), byIdentity: keys.length > 0 };
  }

  /** How many identifying fields of two objects agree (equal, or equal once mapped). */
  private agreement(r: Record<string, unknown>, p: Record<string, unknown>): number {
    let n = 0;
    for (const [k, v] of Object.entries(r)) {
      if (UNPAIRED_FIELDS.has(k) || typeof v !== "string") continue;
      const w = p[k];
      if (typeof w !== "string") continue;
      if (v === w) n += isEnumValue(v) ? 1 : 2; // names, paths and ids count more than a shared enum value
      else if (this.pairs.get(v) === w) n += 3;
    }
    return n;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Ids every element shares (its organization, the activity a vote is on) identify nothing. */
const SHARED_IDS = new Set(["organizationId", "parentOrganizationId", "activityId"]);

/** The fields that identify an element of a list: an id, fingerprint or address whose values are unique in it. */
export function identityKeys(list: Record<string, unknown>[]): string[] {
  const names = new Set(list.flatMap((o) => Object.keys(o)).filter((k) => (k === "id" || k === "fingerprint" || k === "address" || k.endsWith("Id")) && !SHARED_IDS.has(k)));
  return [...names].filter((k) => {
    const values = list.map((o) => o[k]);
    return values.every((v) => typeof v === "string" && v) && new Set(values).size === values.length;
  });
}
