/**
 * `CronSpan` windows: true when `now` lies in `[fire, fire + duration)` for some
 * fire time of a 5-field cron expression evaluated in an IANA time zone.
 */
import { wallTimeInstants, zoneOffsetMs, type CronSpanSpec } from "./time-functions.js";

export type { CronSpanSpec };

const MINUTE = 60_000;
const DAY = 86_400_000;
/** More than any real zone's offset change; bounds the wall-clock search window. */
const SLACK = 3 * 3_600_000;

function dayMatches(spec: CronSpanSpec, dayStartWall: number): boolean {
  const d = new Date(dayStartWall);
  if (!spec.months.has(d.getUTCMonth() + 1)) return false;
  const domOk = spec.daysOfMonth.has(d.getUTCDate());
  const dowOk = spec.daysOfWeek.has(d.getUTCDay());
  // Standard cron: when both day fields are restricted, either may match.
  if (spec.domRestricted && spec.dowRestricted) return domOk || dowOk;
  return domOk && dowOk;
}

export function cronSpanActive(spec: CronSpanSpec, nowMs: number): boolean {
  const duration = spec.durationMinutes * MINUTE;
  const nowWall = nowMs + zoneOffsetMs(nowMs, spec.timeZone);
  const hiWall = nowWall + SLACK;
  const loWall = nowWall - duration - SLACK;
  for (let day = Math.floor(hiWall / DAY) * DAY; day + DAY > loWall; day -= DAY) {
    if (!dayMatches(spec, day)) continue;
    for (let hi = spec.hours.length - 1; hi >= 0; hi--) {
      for (let mi = spec.minutes.length - 1; mi >= 0; mi--) {
        const wall = day + spec.hours[hi]! * 3_600_000 + spec.minutes[mi]! * MINUTE;
        if (wall > hiWall || wall < loWall) continue;
        for (const fire of wallTimeInstants(wall, spec.timeZone)) {
          if (fire <= nowMs && nowMs < fire + duration) return true;
        }
      }
    }
  }
  return false;
}
