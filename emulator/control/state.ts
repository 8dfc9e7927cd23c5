/** The control features' state of one instance (several instances in one process each have their own). */
import type { Runtime } from "../runtime.js";
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

const states = new WeakMap<Runtime, ControlState>();

export function controlOf(rt: Runtime): ControlState {
  let s = states.get(rt);
  if (!s) states.set(rt, (s = { faults: new FaultTable(), requests: new RequestLog(), rateLimiter: null, printLine: null }));
  return s;
}

export function configureControl(rt: Runtime, options: ControlOptions): void {
  const s = controlOf(rt);
  s.rateLimiter = options.rateLimit ? new RateLimiter() : null;
  s.printLine = typeof options.log === "function" ? options.log : options.log ? (line) => console.log(line) : null;
}
