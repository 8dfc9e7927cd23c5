/** Policies and smart contract interfaces. */
import { parseAbi } from "viem/utils";
import type { Abi } from "viem";
import { invalidArgument, notFound, resourceExhausted } from "../../errors.js";
import { newId } from "../../ids.js";
import { compilePolicy } from "../../policy/index.js";
import type { PolicyRow } from "../../store/policies.js";
import { checkName, requireDistinct, requireUuid, withFieldPrefix } from "../lookups.js";
import type { ActivityContext, HandlerTable } from "../types.js";

export const MAX_POLICIES_PER_ORG = 100;

type PolicyParams = { policyName: string; effect: string; condition?: string; consensus?: string; notes: string; time?: string };

/** Parses every expression now, so a bad policy is refused at creation with its position. */
function validate(p: { effect: string; condition?: string | null; consensus?: string | null; time?: string | null }, prefix: string): void {
  withFieldPrefix(prefix, () => compilePolicy({ effect: p.effect, condition: p.condition, consensus: p.consensus, time: p.time }));
}

function requirePolicy(ctx: ActivityContext, id: string, field: string): PolicyRow {
  requireUuid(id, field, "policy");
  const p = ctx.rt.store.policies.get(ctx.org.id, id);
  if (!p) throw notFound(`policy not found: ${id}`);
  return p;
}

function insertPolicies(ctx: ActivityContext, list: PolicyParams[], field: (i: number) => string): string[] {
  const { store } = ctx.rt;
  if (store.policies.list(ctx.org.id).length + list.length > MAX_POLICIES_PER_ORG) throw resourceExhausted(`organization has reached the maximum of ${MAX_POLICIES_PER_ORG} policies`);
  requireDistinct(list.map((p) => p.policyName), "parameters.policies.policyName");
  return list.map((p, i) => {
    const f = field(i);
    checkName(p.policyName, `${f}.policyName`);
    if (store.policies.byName(ctx.org.id, p.policyName)) throw invalidArgument("policy label must be unique", `${f}.policyName`);
    validate(p, f);
    const id = newId();
    store.policies.insert({ id, orgId: ctx.org.id, name: p.policyName, effect: p.effect, condition: p.condition ?? null, consensus: p.consensus ?? null, time: p.time ?? null, notes: p.notes, createdAt: ctx.now, updatedAt: ctx.now });
    return id;
  });
}

/** The ABI of an uploaded interface, or a 400 naming the field. */
export function parseInterface(type: string, text: string, field: string): Abi {
  if (type !== "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM") {
    throw invalidArgument(`${type} interfaces are stored but only Ethereum ABIs are decoded by the emulator`, field);
  }
  try {
    const parsed = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed as Abi;
    if (Array.isArray(parsed?.abi)) return parsed.abi as Abi;
    throw new Error("expected a JSON ABI array");
  } catch (e) {
    try {
      return parseAbi(text.split("\n").filter((l) => l.trim()));
    } catch {
      throw invalidArgument(`invalid smart contract interface: ${(e as Error).message}`, field);
    }
  }
}

export const policyHandlers: HandlerTable = {
  create_policy(ctx, p: PolicyParams) {
    return { policyId: insertPolicies(ctx, [p], () => "parameters")[0]! };
  },

  create_policies(ctx, p: { policies: PolicyParams[] }) {
    if (!p.policies.length) throw invalidArgument("policies must not be empty", "parameters.policies");
    return { policyIds: insertPolicies(ctx, p.policies, (i) => `parameters.policies[${i}]`) };
  },

  update_policy(ctx, p: { policyId: string; policyName?: string; policyEffect?: string; policyCondition?: string; policyConsensus?: string; policyNotes?: string; time?: string }) {
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
      if (other && other.id !== cur.id) throw invalidArgument("policy label must be unique", "parameters.policyName");
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
    return { policyId: cur.id };
  },

  delete_policy(ctx, p: { policyId: string }) {
    ctx.rt.store.policies.delete(requirePolicy(ctx, p.policyId, "parameters.policyId").id);
    return { policyId: p.policyId };
  },

  delete_policies(ctx, p: { policyIds: string[] }) {
    if (!p.policyIds.length) throw invalidArgument("policyIds must not be empty", "parameters.policyIds");
    requireDistinct(p.policyIds, "parameters.policyIds");
    p.policyIds.forEach((id, i) => requirePolicy(ctx, id, `parameters.policyIds[${i}]`));
    for (const id of p.policyIds) ctx.rt.store.policies.delete(id);
    return { policyIds: p.policyIds };
  },

  create_smart_contract_interface(ctx, p: { smartContractAddress: string; smartContractInterface: string; type: string; label: string; notes?: string }) {
    checkName(p.label, "parameters.label");
    if (p.type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM") {
      if (!/^0x[0-9a-fA-F]{40}$/.test(p.smartContractAddress)) throw invalidArgument("smartContractAddress must be a 0x-prefixed 20-byte address", "parameters.smartContractAddress");
      parseInterface(p.type, p.smartContractInterface, "parameters.smartContractInterface");
    }
    const id = newId();
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
    return { smartContractInterfaceId: id };
  },

  delete_smart_contract_interface(ctx, p: { smartContractInterfaceId: string }) {
    requireUuid(p.smartContractInterfaceId, "parameters.smartContractInterfaceId", "smart contract interface");
    if (!ctx.rt.store.smartContractInterfaces.get(ctx.org.id, p.smartContractInterfaceId)) throw notFound(`smart contract interface not found: ${p.smartContractInterfaceId}`);
    ctx.rt.store.smartContractInterfaces.delete(p.smartContractInterfaceId);
    return { smartContractInterfaceId: p.smartContractInterfaceId };
  },
};
