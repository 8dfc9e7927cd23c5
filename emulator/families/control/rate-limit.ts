/**
 * The service's request rate limits, as tkhq/docs `reference/faq.mdx` ("Do you have any rate
 * limits in place in your public API?") gives them, enforced only when the emulator starts with
 * `--rate-limit` (`startEmulator({ rateLimit })`); docs/limits.md › Request rates says how:
 *
 * - every organization: 10 requests per second, each organization counted alone (the FAQ's
 *   "per-suborganization limit of 10 RPS, regardless of tier");
 * - a plan's limit, when one is given (`--rate-limit 1`, the free plan's): that many requests per
 *   second for a top-level organization and its sub-organizations together;
 * - the operations whose entry has `separateRateLimit` (the FAQ's `ethSendTransaction`,
 *   `solSendTransaction`, `getWalletAddressBalances`): 10 per second for the same tree, in a
 *   window of their own (they count against neither limit above).
 *
 * The `ratelimit-*` headers describe the request's tightest window; past a limit, 429 with the
 * FAQ's message. Counted in fixed one-second windows of the host's real time: a rate is about
 * real throughput, so moving the emulated clock does not reset it.
 */
import type { NextFunction, Request, Response } from "express";
import { GrpcCode, TurnkeyError, turnkeyErrorDetail } from "../../core/errors.js";
import { rawBody } from "../../core/http/body.js";
import { sendRpcError } from "../../core/http/errors.js";
import type { Runtime } from "../../core/runtime.js";
import { operationAt } from "./faults.js";
import { organizationOf } from "./request-log-routes.js";
import { organizationOfConfig } from "../auth-proxy/index.js";

/** The FAQ's answer past a limit. */
export const RATE_LIMIT_MESSAGE = "Too many requests. Please wait and try again in a few seconds";
/** The per-organization limit (requests per second). */
export const PER_ORGANIZATION_RPS = 10;
/** The separate limit of the operations whose entry has `separateRateLimit` (requests per second). */
export const SEPARATE_RPS = 10;

/** `--rate-limit` alone (true): the per-organization limit; a number: a plan's requests per second besides. */
export type RateLimitOption = boolean | number;

/** What one request counts against: the organization it targets, the top-level organization of its tree, and whether its operation has the separate limit. */
export type RateSubject = { organization: string; tree: string; separate: boolean };

export type RateDecision = { allowed: boolean; limit: number; remaining: number };

/** A `rateLimit` option as given: true, false, or a plan's requests per second (a whole number from 1); anything else throws naming the option. */
export function checkRateLimitOption(value: unknown, name = "rateLimit"): RateLimitOption {
  if (value === undefined || typeof value === "boolean") return value ?? false;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 1 && value <= 1_000_000) return value;
  throw new Error(`${name} must be true (10 requests per second per organization) or a plan's requests per second, a whole number from 1 to 1000000 (the free plan's is 1); got ${JSON.stringify(value)}`);
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    /** A plan's requests per second for a tree of organizations; null: no plan limit. */
    private readonly plan: number | null = null,
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one request in each of its windows if it fits in all of them, and says whether it did and what is left of the tightest. */
  hit(subject: RateSubject): RateDecision {
    const t = this.now();
    const counted: { w: { start: number; used: number }; limit: number }[] = [];
    if (subject.separate) counted.push({ w: this.window(`separate:${subject.tree}`, t), limit: SEPARATE_RPS });
    else {
      counted.push({ w: this.window(`org:${subject.organization}`, t), limit: PER_ORGANIZATION_RPS });
      if (this.plan !== null) counted.push({ w: this.window(`plan:${subject.tree}`, t), limit: this.plan });
    }
    const full = counted.filter((c) => c.w.used >= c.limit);
    // On a tie the plan's window speaks (it comes last): the FAQ's `ratelimit-limit` is "your plan's total RPS limit".
    if (full.length) return { allowed: false, limit: full[full.length - 1]!.limit, remaining: 0 };
    for (const c of counted) c.w.used++;
    const tightest = counted.reduce((a, b) => (b.limit - b.w.used <= a.limit - a.w.used ? b : a));
    return { allowed: true, limit: tightest.limit, remaining: tightest.limit - tightest.w.used };
  }

  clear(): void {
    this.windows.clear();
  }

  private window(key: string, t: number): { start: number; used: number } {
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(key, (w = { start: t, used: 0 }));
    }
    return w;
  }
}

/** The rate limit's answer (also an injected `status429` fault's). */
export const tooManyRequests = () => new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, RATE_LIMIT_MESSAGE, [turnkeyErrorDetail("RATE_LIMIT_EXCEEDED")]);

/** The organization a request targets (its body's `organizationId`; on the auth proxy, its configuration's organization), its tree and its operation's limit; null when it names none. */
function subjectOf(rt: Runtime, req: Request, kind: "submit" | "query" | "proxy", name: string): RateSubject | null {
  let organization = organizationOf(req.body);
  if (!organization && kind === "proxy") {
    const configId = req.headers["x-auth-proxy-config-id"];
    organization = typeof configId === "string" ? organizationOfConfig(rt, configId.trim()) : null;
  }
  if (!organization) return null;
  let tree = organization;
  for (let depth = 0; depth < 8; depth++) {
    const parent = rt.store.organizations.get(tree)?.parentId;
    if (!parent) break;
    tree = parent;
  }
  const entry = rt.registry.entryFor(kind, name);
  return { organization, tree, separate: entry !== undefined && entry.kind !== "proxy" && entry.separateRateLimit };
}

/** The rate limit, when enabled: the `ratelimit-*` headers on every answer to an operation of the service, 429 past a limit. */
export function rateLimitMiddleware(rt: Runtime) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const limiter = rt.families.control.rateLimiter;
    const operation = limiter ? operationAt(req.path) : null;
    if (!limiter || !operation) return next();
    // Read the body now (the pipeline keeps it as read) to learn the organization. The reader's
    // refusal (size, encoding) is the answer: the body cannot be read twice.
    rawBody(req, res, (err?: unknown) => {
      if (err) return next(err);
      const subject = subjectOf(rt, req, operation.kind, operation.name);
      if (!subject) return next();
      const d = limiter.hit(subject);
      res.setHeader("ratelimit-limit", String(d.limit));
      res.setHeader("ratelimit-remaining", String(d.remaining));
      res.setHeader("x-rate-limit-request-remote-addr", req.socket.remoteAddress ?? "");
      const forwarded = req.headers["x-forwarded-for"];
      res.setHeader("x-rate-limit-request-forwarded-for", (Array.isArray(forwarded) ? forwarded[0] : forwarded) ?? "");
      if (!d.allowed) return sendRpcError(res, tooManyRequests());
      next();
    });
  };
}
