/** The control features' state of one instance (several instances in one process each have their own). */
import { FaultTable } from "./faults.js";
import { checkRateLimitOption, RateLimiter, type RateLimitOption } from "./rate-limit.js";
import { RequestLog } from "./request-log.js";

export type ControlOptions = {
  /** Print one line per request (`--log`); a function receives the lines instead of stdout. */
  log?: boolean | ((line: string) => void);
  /** Enforce the service's rate limits (`--rate-limit`): true, 10 requests per second per organization; a number, a plan's requests per second besides (1: the free plan). */
  rateLimit?: RateLimitOption;
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
  const rateLimit = checkRateLimitOption(options.rateLimit);
  return {
    faults: new FaultTable(),
    requests: new RequestLog(),
    rateLimiter: rateLimit === false ? null : new RateLimiter(rateLimit === true ? null : rateLimit),
    printLine: typeof options.log === "function" ? options.log : options.log ? (line) => console.log(line) : null,
  };
}
