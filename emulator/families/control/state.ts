/** The control features' state of one instance (several instances in one process each have their own): `rt.families.control`. */
import { FaultTable } from "./faults.js";
import { checkRateLimitOption, RateLimiter, type RateLimitOption } from "./rate-limit.js";
import { RequestLog } from "./request-log.js";
import { SnapshotShelf } from "./snapshots.js";
import type { DevKey } from "./ui-votes.js";

export type ControlOptions = {
  /** Load this state file (what GET /emulator/v1/state returns) at start (`--state`). */
  state?: string;
  /** Write the state to this file when the emulator stops (`--export-on-exit`). */
  exportOnExit?: string;
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
  /** Snapshots taken from the control API; kept across reset. */
  snapshots: SnapshotShelf;
  /** The fixture's published API key pairs: the control API votes as their users (ui-votes.ts). */
  devKeys: DevKey[];
  /** Where the state is written when the instance stops, if anywhere. */
  exportOnExit?: string;
};

/** A new instance's control state (made by the family's start). */
export function controlState(options: ControlOptions, devKeys: DevKey[]): ControlState {
  const rateLimit = checkRateLimitOption(options.rateLimit);
  return {
    snapshots: new SnapshotShelf(),
    devKeys,
    exportOnExit: options.exportOnExit,
    faults: new FaultTable(),
    requests: new RequestLog(),
    rateLimiter: rateLimit === false ? null : new RateLimiter(rateLimit === true ? null : rateLimit),
    printLine: typeof options.log === "function" ? options.log : options.log ? (line) => console.log(line) : null,
  };
}
