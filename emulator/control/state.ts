/** The control features' state of one instance (several instances in one process each have their own). */
import { FaultTable } from "./faults.js";
import { RateLimiter } from "./rate-limit.js";
import { RequestLog } from "./request-log.js";

export type ControlOptions = {
  /** Print one line per request (`--log`); a function receives the lines instead of stdout. */
  log?: boolean | ((line: string) => void);
  /** Enforce the per-organization rate limit (`--rate-limit`). */
  rateLimit?: boolean;
};

export type ControlState = {
  faults: FaultTable;
  requests: RequestLog;
  /** Set when the rate limit is enforced. */
  rateLimiter: RateLimiter | null;
  printLine: ((line: string) => void) | null;
};

/** A new instance's control state (`rt.control`, made by startEmulator). */
export function controlState(options: ControlOptions): ControlState {
  return {
    faults: new FaultTable(),
    requests: new RequestLog(),
    rateLimiter: options.rateLimit ? new RateLimiter() : null,
    printLine: typeof options.log === "function" ? options.log : options.log ? (line) => console.log(line) : null,
  };
}
