/**
 * Policies and smart contract interfaces: every expression of a policy is parsed when it is
 * written, so a bad policy is refused at creation (or update) with its position; names are
 * unique in the organization, which holds at most MAX_POLICIES_PER_ORG.
 */
import { invalidArgument, notFound, resourceExhausted, documentedError } from "../../core/errors.js";
import { compilePolicy } from "../../policy/index.js";
import { parseInterface } from "../../policy/smart-contract-interfaces.js";
import type { PolicyRow } from "../../core/store/policies.js";
import { checkName, requireDistinct, requireNonEmpty, requireUuid, withFieldPrefix } from "../../core/vocabulary/lookups.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

export const MAX_POLICIES_PER_ORG = 100;

export type PolicyParams = { policyName: string; effect: string; condition?: string; consensus?: string; notes: string; time?: string };

/** Parses every expression now, so a bad policy is refused at creation with its position. */
function validate(p: { effect: string; condition?: string | null; consensus?: string | null; time?: string | null }, prefix: string): void {
  withFieldPrefix(prefix, () => compilePolicy({ effect: p.effect, condition: p.condition, consensus: p.consensus, time: p.time }));
}

function requirePolicy(ctx: DomainContext, id: string, field: string): PolicyRow {
  requireUuid(id, field, "policy");
  const p = ctx.rt.store.policies.get(ctx.org.id, id);
  if (!p) throw notFound(`policy not found: ${id}`);
  return p;
}

/** create_policy / create_policies: `field(i)` names the i-th policy's fields; returns the ids. */
export function createPolicies(ctx: DomainContext, list: PolicyParams[], field: (i: number) => string): string[] {
  const { store } = ctx.rt;
  requireNonEmpty(list, "parameters.policies");
  if (store.policies.list(ctx.org.id).length + list.length > MAX_POLICIES_PER_ORG) throw resourceExhausted(`organization has reached the maximum of ${MAX_POLICIES_PER_ORG} policies`);
  requireDistinct(list.map((p) => p.policyName), "parameters.policies.policyName");
  return list.map((p, i) => {
    const f = field(i);
    checkName(p.policyName, `${f}.policyName`);
    if (store.policies.byName(ctx.org.id, p.policyName)) throw documentedError("POLICY_LABEL_NOT_UNIQUE", undefined, `${f}.policyName`);
    validate(p, f);
    const id = ctx.rt.random.uuid();
    store.policies.insert({ id, orgId: ctx.org.id, name: p.policyName, effect: p.effect, condition: p.condition ?? null, consensus: p.consensus ?? null, time: p.time ?? null, notes: p.notes, createdAt: ctx.now, updatedAt: ctx.now });
    return id;
  });
}

export type PolicyUpdate = {
  policyId: string;
  policyName?: string;
  policyEffect?: string;
  policyCondition?: string;
  policyConsensus?: string;
  time?: string;
  policyNotes?: string;
};

/** update_policy: the fields given change; the result must still parse. Returns the id. */
export function updatePolicy(ctx: DomainContext, p: PolicyUpdate): string {
  const { store } = ctx.rt;
  const cur = requirePolicy(ctx, p.policyId, "parameters.policyId");
  const next: PolicyRow = {
    ...cur,
    name: p.policyName ?? cur.name,
    effect: p.policyEffect ?? cur.effect,
    condition: p.policyCondition ?? cur.condition,
    consensus: p.policyConsensus ?? cur.consensus,
    time: p.time ?? cur.time,
    notes: p.policyNotes ?? cur.notes,
    updatedAt: ctx.now,
  };
  if (p.policyName !== undefined) {
    checkName(p.policyName, "parameters.policyName");
    const other = store.policies.byName(ctx.org.id, p.policyName);
    if (other && other.id !== cur.id) throw documentedError("POLICY_LABEL_NOT_UNIQUE", undefined, "parameters.policyName");
  }
  try {
    validate(next, "parameters");
  } catch (e) {
    // Name the update's own fields (policyCondition, policyConsensus).
    const fix = (f: string) => f.replace(/^parameters\.(condition|consensus|effect)$/, (_, x: string) => `parameters.policy${x[0]!.toUpperCase()}${x.slice(1)}`);
    for (const d of (e as { details?: { fieldViolations?: { field: string }[] }[] }).details ?? []) for (const v of d.fieldViolations ?? []) v.field = fix(v.field);
    throw e;
  }
  store.policies.update(next);
  return cur.id;
}

/** delete_policy. */
export function deletePolicy(ctx: DomainContext, policyId: string): string {
  ctx.rt.store.policies.delete(requirePolicy(ctx, policyId, "parameters.policyId").id);
  return policyId;
}

/** delete_policies: all or none. */
export function deletePolicies(ctx: DomainContext, policyIds: string[]): string[] {
  requireNonEmpty(policyIds, "parameters.policyIds");
  requireDistinct(policyIds, "parameters.policyIds");
  policyIds.forEach((id, i) => requirePolicy(ctx, id, `parameters.policyIds[${i}]`));
  for (const id of policyIds) ctx.rt.store.policies.delete(id);
  return policyIds;
}

export type SmartContractInterfaceParams = { smartContractAddress: string; smartContractInterface: string; type: string; label: string; notes?: string };

/** create_smart_contract_interface: an Ethereum ABI is parsed now (Solana IDLs are stored as given). */
export function createSmartContractInterface(ctx: DomainContext, p: SmartContractInterfaceParams): string {
  checkName(p.label, "parameters.label");
  if (p.type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM") {
    if (!/^0x[0-9a-fA-F]{40}$/.test(p.smartContractAddress)) throw invalidArgument("smartContractAddress must be a 0x-prefixed 20-byte address", "parameters.smartContractAddress");
    parseInterface(p.type, p.smartContractInterface, "parameters.smartContractInterface");
  }
  const id = ctx.rt.random.uuid();
  ctx.rt.store.smartContractInterfaces.insert({
    id,
    orgId: ctx.org.id,
    address: p.smartContractAddress,
    type: p.type,
    interface: p.smartContractInterface,
    label: p.label,
    notes: p.notes ?? "",
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  return id;
}

/** delete_smart_contract_interface. */
export function deleteSmartContractInterface(ctx: DomainContext, id: string): string {
  requireUuid(id, "parameters.smartContractInterfaceId", "smart contract interface");
  if (!ctx.rt.store.smartContractInterfaces.get(ctx.org.id, id)) throw notFound(`smart contract interface not found: ${id}`);
  ctx.rt.store.smartContractInterfaces.delete(id);
  return id;
}
