/**
 * Velocity controls at work (docs/velocity-controls.md): what an activity contributes to each
 * control of its organization, the `controls` keyword policies read, and the record of each
 * completed activity's contribution that later windows sum.
 *
 * `controls.<identifier>` is a bool: whether the control's aggregate over its window and group,
 * counting the activity being decided as if it went through, compares to the threshold by the
 * control's operator. A control whose group the activity does not name (grouped by wallet, and
 * the activity signs with no wallet account) is left out: a policy reading it errors, which
 * never allows.
 */
import type { Runtime } from "../../core/runtime.js";
import type { CompletedActivity } from "../../core/hooks.js";
import type { VelocityControlRow } from "./repository.js";
import type { PolicySubjects } from "../../core/vocabulary/define.js";
import { buildEthTxContext } from "../../policy/context-eth.js";
import { buildSolanaTxContext } from "../../policy/context-solana.js";
import { activityKind } from "../../policy/context.js";
import { TRANSFER_KINDS, compare, scaleOf, scaledAmount, scaledThreshold } from "./definition.js";
import { walletIdAt } from "../wallets/index.js";

/** One asset movement an activity signs: on `chain` (a CAIP-2 id; "solana:*" when the request names no cluster), of `asset` (CAIP-19 asset part). */
export type Transfer = { chain: string; asset: string; amount: bigint };

/** What an activity adds to one control: an amount at the control's scale and a count of data points. */
export type Contribution = { amount: bigint; count: number };

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

const ERC20_TRANSFER = "0xa9059cbb";
const ERC20_TRANSFER_FROM = "0x23b872dd";

/** A call's native value and, for an ERC-20 transfer/transferFrom, the token amount. */
function evmCallTransfers(chain: string, to: string | undefined, value: bigint, data: string): Transfer[] {
  const out: Transfer[] = [];
  if (value > 0n) out.push({ chain, asset: "slip44:*", amount: value });
  const d = data.toLowerCase();
  const word = (i: number) => BigInt(`0x${d.slice(10 + 64 * i, 10 + 64 * (i + 1))}`);
  if (to && d.startsWith(ERC20_TRANSFER) && d.length >= 10 + 128) out.push({ chain, asset: `erc20:${to.toLowerCase()}`, amount: word(1) });
  else if (to && d.startsWith(ERC20_TRANSFER_FROM) && d.length >= 10 + 192) out.push({ chain, asset: `erc20:${to.toLowerCase()}`, amount: word(2) });
  return out;
}

/** Solana clusters by the names the send intents accept, as CAIP-2 (the genesis hash's first 32 characters). */
function solanaChain(caip2: unknown): string {
  if (typeof caip2 !== "string" || !caip2.startsWith("solana:")) return "solana:*";
  const ref = caip2.slice("solana:".length);
  if (ref === "mainnet") return "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
  if (ref === "devnet") return "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
  return `solana:${ref.slice(0, 32)}`;
}

function solanaTransfers(chain: string, unsigned: string): Transfer[] {
  const tx = attempt(() => buildSolanaTxContext(unsigned));
  if (!tx) return [];
  const native = (tx.transfers as { amount: bigint }[]).map((t) => ({ chain, asset: "slip44:501", amount: BigInt(t.amount) }));
  // A plain SPL Transfer names token accounts, not the mint: only the checked forms say which token moved.
  const spl = (tx.spl_transfers as { token_mint?: string; amount: bigint }[]).flatMap((t) => (t.token_mint ? [{ chain, asset: `token:${t.token_mint}`, amount: BigInt(t.amount) }] : []));
  return [...native, ...spl];
}

/** The transfers an activity signs (none for an activity that signs no transaction, or one that cannot be decoded). */
export function transfersOf(activityType: string, params: Record<string, unknown>, subjects: PolicySubjects): Transfer[] {
  const kind = activityKind(activityType);
  if (!TRANSFER_KINDS.has(kind)) return [];
  if (kind === "ETH_SEND_TRANSACTION") {
    const chain = String(params.caip2 ?? "");
    const calls = Array.isArray(params.calls) ? (params.calls as Record<string, unknown>[]) : [params];
    return calls.flatMap((c) => {
      const value = attempt(() => BigInt(String(c.value ?? "0"))) ?? 0n;
      return evmCallTransfers(chain, typeof c.to === "string" ? c.to : undefined, value, typeof c.data === "string" ? c.data : "0x");
    });
  }
  if (kind === "SOL_SEND_TRANSACTION") return typeof params.unsignedTransaction === "string" ? solanaTransfers(solanaChain(params.caip2), params.unsignedTransaction) : [];
  const tx = subjects.transaction;
  if (!tx) return [];
  if (tx.type === "TRANSACTION_TYPE_ETHEREUM") {
    const eth = attempt(() => buildEthTxContext(tx.unsigned));
    if (!eth || eth.chain_id === undefined) return [];
    return evmCallTransfers(`eip155:${String(eth.chain_id)}`, eth.to as string | undefined, eth.value as bigint, eth.data as string);
  }
  if (tx.type === "TRANSACTION_TYPE_SOLANA") return solanaTransfers("solana:*", tx.unsigned);
  return [];
}

/** Whether a transfer is of the asset a definition names (CAIP-19: `<chain>/<namespace>:<reference>`). */
function matches(t: Transfer, caip19: string): boolean {
  const slash = caip19.indexOf("/");
  const chain = caip19.slice(0, slash);
  const asset = caip19.slice(slash + 1);
  const sameChain = t.chain === chain || (t.chain === "solana:*" && chain.startsWith("solana:"));
  if (!sameChain) return false;
  // The native coin of an EVM chain is whichever slip44 coin the definition names for that chain.
  if (t.asset === "slip44:*") return asset.startsWith("slip44:");
  return t.chain.startsWith("eip155:") ? t.asset === asset.toLowerCase() : t.asset === asset;
}

/** What the activity adds to the control; undefined when the control's data source does not include it. */
export function contributionTo(control: VelocityControlRow, activityType: string, transfers: Transfer[]): Contribution | undefined {
  const kind = activityKind(activityType);
  const listed = (filter: { activityType: string }[] | undefined) => !filter?.length || filter.some((f) => activityKind(f.activityType) === kind);
  const ds = control.dataSource;
  if (ds.activityExecution) return listed(ds.activityExecution.filter?.activity) ? { amount: 0n, count: 1 } : undefined;
  const cat = ds.chainAssetTransfer!;
  if (!TRANSFER_KINDS.has(kind) || !listed(cat.filter?.activity)) return undefined;
  const scale = scaleOf(ds);
  let amount = 0n;
  let count = 0;
  for (const t of transfers) {
    const def = cat.definition.find((d) => matches(t, d.caip19));
    if (!def) continue;
    amount += scaledAmount(t.amount, Number(def.decimals), scale);
    count += 1;
  }
  return count ? { amount, count } : undefined;
}

/** The group an activity falls in: its proposer, and the wallet it signs with (if any). */
export type Group = { userId: string; walletId?: string };

export function groupOf(rt: Runtime, orgId: string, subjects: PolicySubjects, userId: string): Group {
  const signWith = subjects.signWith ?? subjects.address;
  const walletId = subjects.walletId ?? (signWith ? walletIdAt(rt, orgId, signWith) : undefined);
  return walletId ? { userId, walletId } : { userId };
}

/** The control's bucket for a group: undefined when the control groups by wallet and the activity has none. */
function bucket(control: VelocityControlRow, group: Group): { userId?: string; walletId?: string } | undefined {
  const by = control.aggregation.groupBy;
  if (by.user) return { userId: group.userId };
  if (by.wallet) return group.walletId ? { walletId: group.walletId } : undefined;
  return {};
}

/** The start of the control's window at `now` (null: all time). A point exactly one window old has left it. */
function windowStart(control: VelocityControlRow, now: number): number | null {
  const rolling = control.aggregation.window.rolling;
  return rolling ? now - Number(rolling.duration) * 1000 + 1 : null;
}

/** The control's aggregate in a bucket at `now`, plus what the pending activity would add. */
export function aggregateOf(rt: Runtime, control: VelocityControlRow, where: { userId?: string; walletId?: string }, now: number, pending?: Contribution): bigint {
  const points = rt.store.velocityControls.pointsOf(control.id, windowStart(control, now), where);
  const count = control.aggregation.method === "VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT";
  let total = 0n;
  for (const p of points) total += count ? BigInt(p.count) : BigInt(p.amount);
  if (pending) total += count ? BigInt(pending.count) : pending.amount;
  // A count compares with the threshold in whole units.
  return count ? total * 10n ** BigInt(scaleOf(control.dataSource)) : total;
}

/**
 * The `controls` keyword for an activity being decided: identifier → whether the control holds
 * with the activity counted. `userId` is the activity's proposer.
 */
export function controlsContext(rt: Runtime, orgId: string, activityType: string, params: Record<string, unknown>, subjects: PolicySubjects, userId: string, now: number): Record<string, boolean> {
  if (!rt.store.velocityControls.any(orgId)) return {};
  const transfers = transfersOf(activityType, params, subjects);
  const group = groupOf(rt, orgId, subjects, userId);
  const out: Record<string, boolean> = {};
  for (const control of rt.store.velocityControls.forOrg(orgId)) {
    const where = bucket(control, group);
    if (!where) continue;
    const total = aggregateOf(rt, control, where, now, contributionTo(control, activityType, transfers));
    out[control.identifier] = compare(total, control.aggregation.operator, scaledThreshold(control.aggregation.threshold, scaleOf(control.dataSource)));
  }
  return out;
}

/**
 * Records a completed activity's contribution to every control of its organization it counts
 * for (in the activity's transaction, at its completion time): the family's `activityCompleted`
 * hook. The subjects are what the activity's frame resolved for its policies (read once).
 */
export function recordContributions(rt: Runtime, completed: CompletedActivity): void {
  const a = completed.activity;
  if (!rt.store.velocityControls.any(a.orgId)) return;
  const params = (Object.values(a.intent)[0] ?? {}) as Record<string, unknown>;
  const subjects = completed.subjects;
  const transfers = transfersOf(a.type, params, subjects);
  const group = groupOf(rt, a.orgId, subjects, a.userId ?? "");
  for (const control of rt.store.velocityControls.forOrg(a.orgId)) {
    // A control counts what completes after it exists: not the activity that created it.
    if (control.id === (a.result as { createVelocityControlResult?: { velocityControlId?: string } }).createVelocityControlResult?.velocityControlId) continue;
    const c = contributionTo(control, a.type, transfers);
    if (!c) continue;
    rt.store.velocityControls.addPoint({ controlId: control.id, activityId: a.id, orgId: a.orgId, userId: group.userId, walletId: group.walletId ?? null, amount: c.amount.toString(), count: c.count, at: a.updatedAt });
  }
}
