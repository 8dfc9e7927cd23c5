/**
 * The gas station's sponsorship limits: per organization, over a rolling window, valued in USD
 * at the emulator's reference prices (emulator/families/chains/prices.ts). A top-level organization's
 * limit covers its own and its sub-organizations' sponsored sends; each sub-organization also
 * has its own (the parent's `subOrgWindowLimitUsd`). get_gas_usage reports it.
 */
import { badRequestDetail, GrpcCode, TurnkeyError, turnkeyErrorDetail } from "../../../core/errors.js";
import type { Runtime } from "../../../core/runtime.js";
import type { OrganizationRow } from "../../../core/store/organizations.js";
import type { GasUsageConfigRow } from "../repository.js";
import { formatUsd, parseUsd, usdMicros } from "../prices.js";
import { nativeAsset } from "../assets.js";
import { networksOf } from "../networks.js";

/** Limits when an organization has no gas usage configuration of its own (the emulator's choice). */
export const DEFAULT_GAS_LIMITS = { windowDurationMinutes: 1440, orgWindowLimitUsd: "100", subOrgWindowLimitUsd: "10", enabled: true } as const;

/** The limits that apply to an organization: its own configuration, or its parent's sub-organization limit. */
export function gasLimitsOf(rt: Runtime, org: OrganizationRow): { windowDurationMinutes: number; limitUsd: string; enabled: boolean; config?: GasUsageConfigRow } {
  const own = org.parentId ? rt.store.gasUsageConfigs.get(org.parentId) : rt.store.gasUsageConfigs.get(org.id);
  if (!own) return { windowDurationMinutes: DEFAULT_GAS_LIMITS.windowDurationMinutes, limitUsd: org.parentId ? DEFAULT_GAS_LIMITS.subOrgWindowLimitUsd : DEFAULT_GAS_LIMITS.orgWindowLimitUsd, enabled: DEFAULT_GAS_LIMITS.enabled };
  return { windowDurationMinutes: own.windowDurationMinutes, limitUsd: org.parentId ? own.subOrgWindowLimitUsd : own.orgWindowLimitUsd, enabled: own.enabled, config: own };
}

/** A sponsored transaction another family recorded (Earn's deposits, withdrawals, reward claims): its chain, hash and fee once known, and where the fee is written when it becomes known. */
export type SponsoredTransaction = { caip2: string; txHash: string; fee?: string | null; settle(fee: string): void };

/** Sponsored transactions of these organizations since `since` that a family other than chains recorded. */
export type SponsoredSource = (rt: Runtime, orgIds: string[], since: number) => SponsoredTransaction[];

/** Lets a family that sends sponsored transactions of its own have them counted against the organization's gas limits (Earn does, at start). */
export function addSponsoredSource(rt: Runtime, source: SponsoredSource): void {
  rt.families.chains.sponsoredSources.push(source);
}

/** USD micro-dollars of gas the gas station paid for `org` (and, for a top-level organization, its sub-organizations) in the window. */
export async function sponsoredUsageMicros(rt: Runtime, org: OrganizationRow, windowMinutes: number, now: number): Promise<bigint> {
  const orgIds = org.parentId ? [org.id] : [org.id, ...rt.store.organizations.children(org.id).map((o) => o.id)];
  const since = now - windowMinutes * 60_000;
  // Sponsored sends, and what other families sponsored (Earn's deposits, withdrawals and reward claims).
  const rows: SponsoredTransaction[] = [
    ...rt.store.sendTransactions.sponsoredSince(orgIds, since).map((row) => ({ ...row, settle: (fee: string) => rt.store.sendTransactions.update(row.id, { fee }) })),
    ...(rt.families.chains?.sponsoredSources ?? []).flatMap((source) => source(rt, orgIds, since)),
  ];
  let total = 0n;
  for (const row of rows) {
    const { settle } = row;
    let fee = row.fee ? BigInt(row.fee) : undefined;
    const networks = networksOf(rt);
    if (fee === undefined && networks) {
      const status = await (await networks.get(row.caip2)).getTransactionStatus(row.txHash);
      if (status.status === "included" || (status.status === "failed" && status.fee !== undefined)) {
        fee = status.fee ?? 0n;
        const settled = fee;
        rt.store.tx(() => settle(settled.toString()));
      }
    }
    if (fee === undefined) continue;
    const asset = nativeAsset(row.caip2);
    total += usdMicros(asset.symbol, fee, asset.decimals);
  }
  return total;
}

export async function gasUsage(rt: Runtime, org: OrganizationRow, now: number): Promise<{ windowDurationMinutes: number; windowLimitUsd: string; usageUsd: string }> {
  const limits = gasLimitsOf(rt, org);
  const used = await sponsoredUsageMicros(rt, org, limits.windowDurationMinutes, now);
  return { windowDurationMinutes: limits.windowDurationMinutes, windowLimitUsd: limits.limitUsd, usageUsd: formatUsd(used) };
}

/** Refuses sponsorship when the organization's gas station is off or its window's limit is spent. */
export async function checkSponsorshipAllowed(ctx: { rt: Runtime; org: OrganizationRow; now: number }): Promise<void> {
  const limits = gasLimitsOf(ctx.rt, ctx.org);
  if (!limits.enabled) {
    throw new TurnkeyError(GrpcCode.FAILED_PRECONDITION, "gas sponsorship is disabled for this organization", [turnkeyErrorDetail("REQUEST_INVALID"), badRequestDetail("parameters.sponsor", "sponsorship disabled")]);
  }
  const checks: [OrganizationRow, string][] = [[ctx.org, limits.limitUsd]];
  const parent = ctx.org.parentId ? ctx.rt.store.organizations.get(ctx.org.parentId) : undefined;
  if (parent) checks.push([parent, gasLimitsOf(ctx.rt, parent).limitUsd]);
  for (const [org, limitUsd] of checks) {
    const used = await sponsoredUsageMicros(ctx.rt, org, limits.windowDurationMinutes, ctx.now);
    const limit = parseUsd(limitUsd) ?? 0n;
    if (used >= limit) {
      throw new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, `gas sponsorship limit reached: ${formatUsd(used)} USD of ${limitUsd} USD used in the last ${limits.windowDurationMinutes} minutes${org.id === ctx.org.id ? "" : " by the parent organization and its sub-organizations"}`, [
        turnkeyErrorDetail("RATE_LIMIT_EXCEEDED"),
        badRequestDetail("parameters.sponsor", "gas sponsorship limit reached"),
      ]);
    }
  }
}

/** Stores an organization's gas station limits (what the dashboard's upsert_gas_usage_config sets). */
export function upsertGasUsageConfig(rt: Runtime, orgId: string, input: { orgWindowLimitUsd: string; subOrgWindowLimitUsd: string; windowDurationMinutes: number; enabled: boolean }, now: number): string {
  const existing = rt.store.gasUsageConfigs.get(orgId);
  const id = existing?.id ?? rt.random.uuid();
  rt.store.tx(() => rt.store.gasUsageConfigs.upsert({ orgId, id, ...input, createdAt: existing?.createdAt ?? now, updatedAt: now }));
  return id;
}
