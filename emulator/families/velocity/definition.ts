/**
 * A velocity control's definition (create_velocity_control): validated field by field with the
 * service's error shape, and the exact decimal arithmetic its aggregation compares with.
 * The rules and where they come from are in docs/velocity-controls.md; each one that no
 * published source states is marked UNCONFIRMED there.
 *
 * Amounts are exact: every amount and the threshold are integers scaled by 10^scale, where
 * scale is the larger of 18 (the threshold's fractional digits) and the most decimals any of
 * the control's assets has, so a sum over assets of different decimals loses nothing.
 */
import { invalidArgument } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import { v1ActivityType } from "../../../contracts/generated/public-api.js";
import { activityKind } from "../../policy/context.js";
import type { Wire } from "../../../contracts/wire.js";

export type DataSource = Wire["v1VelocityControlDataSource"];
export type Aggregation = Wire["v1VelocityControlAggregation"];

/** The activity kinds (version suffix dropped) whose completion signs a transfer: the chainAssetTransfer data source reads these. */
export const TRANSFER_KINDS = new Set(["SIGN_TRANSACTION", "ETH_SEND_TRANSACTION", "SOL_SEND_TRANSACTION"]);

const MAX_NAME = 256;
const MAX_IDENTIFIER = 64;
const MAX_DEFINITIONS = 100;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** CAIP-19: chain_id "/" asset_namespace ":" asset_reference ["/" token_id]. */
const CAIP19 = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})\/([-a-z0-9]{3,8}):([-.%a-zA-Z0-9]{1,128})(\/[-.%a-zA-Z0-9]{1,78})?$/;
const THRESHOLD = /^(\d+)(?:\.(\d+))?$/;
/** The longest rolling window: about 100 years (UNCONFIRMED: the service states no bound). */
export const MAX_WINDOW_SECONDS = 100 * 366 * 24 * 3600;

const KNOWN_ACTIVITY_TYPES = new Set<string>(v1ActivityType().options);

/** Exactly one of the oneof members is set (present, not null). */
function oneOf(obj: Record<string, unknown> | undefined, members: readonly string[], field: string): string {
  const set = members.filter((m) => obj?.[m] !== undefined && obj[m] !== null);
  if (set.length !== 1) throw invalidArgument(`${field} must set exactly one of ${members.join(", ")} (got ${set.length ? set.join(", ") : "none"})`, field);
  return set[0]!;
}

export function checkName(name: string): void {
  if (!name.trim()) throw invalidArgument("parameters.name must not be empty", "parameters.name");
  if (name.length > MAX_NAME) throw invalidArgument(`parameters.name must be at most ${MAX_NAME} characters (got ${name.length})`, "parameters.name");
}

/** An identifier a policy can name as `controls.<identifier>`: a policy-language field name (every such name parses after a dot, reserved words included). */
export function checkIdentifier(identifier: string): void {
  const field = "parameters.identifier";
  if (!IDENTIFIER.test(identifier)) {
    throw invalidArgument(`invalid identifier ${quote(identifier)}: policies reference it as controls.<identifier>, so it must start with a letter or underscore and contain only letters, digits and underscores`, field);
  }
  if (identifier.length > MAX_IDENTIFIER) throw invalidArgument(`invalid identifier: at most ${MAX_IDENTIFIER} characters (got ${identifier.length})`, field);
}

function checkActivityFilter(list: { activityType: string }[] | undefined, field: string, transfersOnly: boolean): void {
  const seen = new Set<string>();
  (list ?? []).forEach((a, i) => {
    const f = `${field}[${i}].activityType`;
    if (!KNOWN_ACTIVITY_TYPES.has(a.activityType)) throw invalidArgument(`unknown activity type ${quote(a.activityType)}`, f);
    if (transfersOnly && !TRANSFER_KINDS.has(activityKind(a.activityType))) {
      throw invalidArgument(`${a.activityType} signs no asset transfer: a chainAssetTransfer filter may name only transaction signing and sending activity types`, f);
    }
    if (seen.has(a.activityType)) throw invalidArgument(`${a.activityType} is listed twice`, f);
    seen.add(a.activityType);
  });
}

export function checkDataSource(ds: DataSource): void {
  const root = "parameters.dataSource";
  const kind = oneOf(ds as Record<string, unknown>, ["chainAssetTransfer", "activityExecution"], root);
  if (kind === "activityExecution") {
    checkActivityFilter(ds.activityExecution!.filter?.activity, `${root}.activityExecution.filter.activity`, false);
    return;
  }
  const cat = ds.chainAssetTransfer!;
  const f = `${root}.chainAssetTransfer`;
  if (cat.definition.length === 0) throw invalidArgument(`${f}.definition must list at least one asset`, `${f}.definition`);
  if (cat.definition.length > MAX_DEFINITIONS) throw invalidArgument(`${f}.definition lists ${cat.definition.length} assets, at most ${MAX_DEFINITIONS} are allowed`, `${f}.definition`);
  const seen = new Set<string>();
  cat.definition.forEach((d, i) => {
    const df = `${f}.definition[${i}]`;
    if (!CAIP19.test(d.caip19)) throw invalidArgument(`invalid CAIP-19 asset identifier ${quote(d.caip19)} (expected e.g. eip155:1/slip44:60)`, `${df}.caip19`);
    if (!/^\d{1,3}$/.test(d.decimals) || Number(d.decimals) > 255) throw invalidArgument(`invalid decimals ${quote(d.decimals)}: a base-10 integer from 0 through 255`, `${df}.decimals`);
    const key = d.caip19.toLowerCase();
    if (seen.has(key)) throw invalidArgument(`asset ${d.caip19} is listed twice`, `${df}.caip19`);
    seen.add(key);
  });
  checkActivityFilter(cat.filter?.activity, `${f}.filter.activity`, true);
  if (cat.phase) {
    const phase = oneOf(cat.phase as Record<string, unknown>, ["signature", "submission"], `${f}.phase`);
    if (phase === "submission") throw invalidArgument("the submission phase is reserved for future use: measure transfers at signature", `${f}.phase.submission`);
  }
}

export function checkAggregation(agg: Aggregation, ds: DataSource): void {
  const root = "parameters.aggregation";
  if (ds.activityExecution && agg.method === "VELOCITY_CONTROL_AGGREGATION_METHOD_SUM") {
    throw invalidArgument("an activityExecution data source has no amount to sum: use VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT", `${root}.method`);
  }
  const m = THRESHOLD.exec(agg.threshold);
  if (!m) throw invalidArgument(`invalid threshold ${quote(agg.threshold)}: a non-negative base-10 decimal string`, `${root}.threshold`);
  const [, whole, frac = ""] = m;
  if (frac.length > 18) throw invalidArgument(`invalid threshold ${quote(agg.threshold)}: at most 18 fractional digits (got ${frac.length})`, `${root}.threshold`);
  if (whole!.length + frac.length > 38) throw invalidArgument(`invalid threshold ${quote(agg.threshold)}: at most 38 digits in all (got ${whole!.length + frac.length})`, `${root}.threshold`);
  const window = oneOf(agg.window as Record<string, unknown>, ["rolling", "infinite"], `${root}.window`);
  if (window === "rolling") {
    const d = agg.window.rolling!.duration;
    const field = `${root}.window.rolling.duration`;
    if (!/^\d+$/.test(d)) throw invalidArgument(`invalid duration ${quote(d)}: seconds as a base-10 integer string`, field);
    const n = Number(d);
    if (n <= 0) throw invalidArgument("invalid duration: a rolling window lasts at least 1 second", field);
    if (n > MAX_WINDOW_SECONDS) throw invalidArgument(`invalid duration ${d}: at most ${MAX_WINDOW_SECONDS} seconds`, field);
  }
  oneOf(agg.groupBy as Record<string, unknown>, ["organization", "user", "wallet"], `${root}.groupBy`);
}

/** The control's scale: amounts and the threshold are integers times 10^-scale. */
export function scaleOf(ds: DataSource): number {
  return Math.max(18, ...(ds.chainAssetTransfer?.definition ?? []).map((d) => Number(d.decimals)));
}

/** A validated threshold as an integer at `scale`. */
export function scaledThreshold(threshold: string, scale: number): bigint {
  const [whole, frac = ""] = threshold.split(".");
  return BigInt(whole! + frac.padEnd(scale, "0"));
}

/** An amount in an asset's base units (e.g. wei) as an integer at `scale`. */
export function scaledAmount(raw: bigint, decimals: number, scale: number): bigint {
  return raw * 10n ** BigInt(scale - decimals);
}

/** `aggregate <operator> threshold`. */
export function compare(aggregate: bigint, operator: Aggregation["operator"], threshold: bigint): boolean {
  switch (operator) {
    case "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN":
      return aggregate < threshold;
    case "VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL":
      return aggregate <= threshold;
    case "VELOCITY_CONTROL_AGGREGATION_OPERATOR_EQUAL":
      return aggregate === threshold;
    case "VELOCITY_CONTROL_AGGREGATION_OPERATOR_GREATER_THAN_OR_EQUAL":
      return aggregate >= threshold;
    case "VELOCITY_CONTROL_AGGREGATION_OPERATOR_GREATER_THAN":
      return aggregate > threshold;
  }
}
