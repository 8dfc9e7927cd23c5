/**
 * Subscription filters (`filtersJson`). The service publishes the field ("JSON-encoded filter
 * criteria for this subscription") but not its grammar, and says server-side filtering is
 * coming; the emulator applies this reading of it (docs/webhooks.md):
 *
 *   a JSON object whose members each name a field of the event and give the accepted value,
 *   or a list of accepted values. An event is delivered when every member accepts it (AND
 *   across members, OR within a list). `{}` accepts every event.
 *
 * Fields by event type: ACTIVITY_UPDATES `type`, `status`, `organizationId` (the activity's
 * organization: a parent can pick sub-organizations); balance events `organizationId`,
 * `caip2`, `address`, `operation`; SEND_TRANSACTION_STATUS_UPDATES `organizationId`, `caip2`,
 * `status`. Anything else is refused when the endpoint is created, naming the field.
 *
 * `caip2` is compared in its canonical form. Events already carry it (the chain registry's id,
 * e.g. `solana:<first 32 characters of the genesis hash>`); a filter's values are read by
 * families/chains/caip2.ts, the emulator's one CAIP-2 parser, so a filter may name the cluster that way,
 * by its full genesis hash or by its alias (`solana:mainnet`, `solana:devnet`); all three match
 * the same events.
 */
import { invalidArgument } from "../../core/errors.js";
import { parseCaip2 } from "../chains/index.js";
import { BALANCE_OPERATIONS, SEND_STATUSES, type EmulatorEvent } from "../../core/events.js";
import { ACTIVITY_STATUSES } from "../../core/store/activities.js";
import type { WebhookEventType } from "./event-types.js";
import { quote } from "../../core/input-error.js";

export type EventFilter = ReadonlyMap<string, readonly string[]>;

const MAX_VALUES = 100;

/** Per field: a check of one value (the reason it is refused, or null). */
type FieldRule = (v: string) => string | null;
const oneOf = (allowed: readonly string[]): FieldRule => (v) => (allowed.includes(v) ? null : `expected one of ${allowed.join(", ")}`);
const anyText: FieldRule = () => null;
const caip2: FieldRule = (v) => {
  try {
    parseCaip2(v);
    return null;
  } catch (e) {
    return `expected a CAIP-2 chain id such as eip155:1 or solana:mainnet (${(e as Error).message})`;
  }
};

const FIELDS: Record<WebhookEventType, Record<string, FieldRule>> = {
  ACTIVITY_UPDATES: {
    type: (v) => (/^ACTIVITY_TYPE_[A-Z0-9_]+$/.test(v) ? null : "expected an activity type such as ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
    status: oneOf(ACTIVITY_STATUSES),
    organizationId: anyText,
  },
  BALANCE_CONFIRMED_UPDATES: { organizationId: anyText, caip2, address: anyText, operation: oneOf(BALANCE_OPERATIONS) },
  BALANCE_FINALIZED_UPDATES: { organizationId: anyText, caip2, address: anyText, operation: oneOf(BALANCE_OPERATIONS) },
  SEND_TRANSACTION_STATUS_UPDATES: { organizationId: anyText, caip2, status: oneOf(SEND_STATUSES) },
};

/** Checks a subscription's filtersJson; a refusal is a 400 naming `field`. */
export function parseEventFilter(eventType: WebhookEventType, filtersJson: string, field: string): EventFilter {
  let parsed: unknown;
  try {
    parsed = JSON.parse(filtersJson);
  } catch {
    throw invalidArgument("filtersJson must be a JSON object", field);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalidArgument("filtersJson must be a JSON object", field);
  const rules = FIELDS[eventType];
  const filter = new Map<string, string[]>();
  for (const [name, raw] of Object.entries(parsed)) {
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (!rule) throw invalidArgument(`filtersJson: ${eventType} events cannot be filtered on ${quote(name)}; filter on ${Object.keys(rules).join(", ")}`, field);
    const values = Array.isArray(raw) ? raw : [raw];
    if (!values.length) throw invalidArgument(`filtersJson: ${name} needs at least one value`, field);
    if (values.length > MAX_VALUES) throw invalidArgument(`filtersJson: ${name} takes at most ${MAX_VALUES} values`, field);
    for (const v of values) {
      if (typeof v !== "string" || !v) throw invalidArgument(`filtersJson: ${name} takes a non-empty string or a list of them`, field);
      const why = rule(v);
      if (why) throw invalidArgument(`filtersJson: ${name} ${quote(v)}: ${why}`, field);
    }
    filter.set(name, name === "address" ? values.map(normalAddress) : name === "caip2" ? values.map(canonicalCaip2) : values);
  }
  return filter;
}

/** A chain id (already checked by its rule) in the form events carry: an alias or full genesis hash names the same cluster. */
const canonicalCaip2 = (v: string): string => parseCaip2(v).caip2;

/** EVM addresses are compared without regard to case (checksummed or not); others as written. */
const normalAddress = (a: string) => (/^0x[0-9a-fA-F]{40}$/.test(a) ? a.toLowerCase() : a);

/** The values an event offers to filters (`orgId`: the organization it happened in). */
export function filterFields(event: Exclude<EmulatorEvent, { type: "CLOCK_MOVED" }>, orgId: string): Record<string, string> {
  switch (event.type) {
    case "ACTIVITY_UPDATES":
      return { type: event.activity.type, status: event.activity.status, organizationId: orgId };
    case "SEND_TRANSACTION_STATUS_UPDATES":
      return { organizationId: orgId, caip2: event.msg.caip2, status: event.msg.status };
    default:
      return { organizationId: orgId, caip2: event.msg.caip2, address: normalAddress(event.msg.address), operation: event.msg.operation };
  }
}

/** Whether every member of the filter accepts the event. */
export function filterAccepts(filter: EventFilter, fields: Record<string, string>): boolean {
  for (const [name, values] of filter) if (!values.includes(fields[name]!)) return false;
  return true;
}

const cache = new Map<string, EventFilter | null>();

/**
 * The filter of a stored subscription, parsed once per text. One this version would refuse
 * (stored by an older one, which kept filters without applying them) filters nothing, as then.
 */
export function storedFilter(eventType: WebhookEventType, filtersJson: string): EventFilter | null {
  const key = `${eventType} ${filtersJson}`;
  let f = cache.get(key);
  if (f === undefined) {
    if (cache.size > 1000) cache.clear();
    try {
      f = parseEventFilter(eventType, filtersJson, "filtersJson");
    } catch {
      f = null;
    }
    cache.set(key, f);
  }
  return f;
}
