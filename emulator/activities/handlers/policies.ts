/** Policies and smart contract interfaces. */
import { invalidArgument, notFound, resourceExhausted, documentedError } from "../../errors.js";
import { newId } from "../../ids.js";
import { compilePolicy } from "../../policy/index.js";
import type { PolicyRow } from "../../store/policies.js";
import { checkName, requireDistinct, requireUuid, withFieldPrefix } from "../../domain/lookups.js";
import type { ActivityContext } from "../types.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";
import { parseInterface } from "../../policy/smart-contract-interfaces.js";

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
    if (store.policies.byName(ctx.org.id, p.policyName)) throw documentedError("POLICY_LABEL_NOT_UNIQUE", undefined, `${f}.policyName`);
    validate(p, f);
    const id = newId();
    store.policies.insert({ id, orgId: ctx.org.id, name: p.policyName, effect: p.effect, condition: p.condition ?? null, consensus: p.consensus ?? null, time: p.time ?? null, notes: p.notes, createdAt: ctx.now, updatedAt: ctx.now });
    return id;
  });
}

export const policyOperations = [
  defineActivity("create_policy", {
    policy: { resource: "POLICY", action: "CREATE", source: "documented" },
    run(ctx, p) {
      return { policyId: insertPolicies(ctx, [p], () => "parameters")[0]! };
    },
  }),

  defineActivity("create_policies", {
    policy: { resource: "POLICY", action: "CREATE", source: "documented" },
    arrayLimits: { policies: ALLOWANCE.policiesPerOrganization },
    run(ctx, p) {
      if (!p.policies.length) throw invalidArgument("policies must not be empty", "parameters.policies");
      return { policyIds: insertPolicies(ctx, p.policies, (i) => `parameters.policies[${i}]`) };
    },
  }),

  defineActivity("update_policy", {
    policy: { resource: "POLICY", action: "UPDATE", source: "documented" },
    run(ctx, p) {
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
      return { policyId: cur.id };
    },
  }),

  defineActivity("delete_policy", {
    policy: { resource: "POLICY", action: "DELETE", source: "documented" },
    run(ctx, p) {
      ctx.rt.store.policies.delete(requirePolicy(ctx, p.policyId, "parameters.policyId").id);
      return { policyId: p.policyId };
    },
  }),

  defineActivity("delete_policies", {
    policy: { resource: "POLICY", action: "DELETE", source: "documented" },
    run(ctx, p) {
      if (!p.policyIds.length) throw invalidArgument("policyIds must not be empty", "parameters.policyIds");
      requireDistinct(p.policyIds, "parameters.policyIds");
      p.policyIds.forEach((id, i) => requirePolicy(ctx, id, `parameters.policyIds[${i}]`));
      for (const id of p.policyIds) ctx.rt.store.policies.delete(id);
      return { policyIds: p.policyIds };
    },
  }),

  defineActivity("create_smart_contract_interface", {
    policy: { resource: "SMART_CONTRACT_INTERFACE", action: "CREATE", source: "inferred" },
    run(ctx, p) {
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
  }),

  defineActivity("delete_smart_contract_interface", {
    policy: { resource: "SMART_CONTRACT_INTERFACE", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      requireUuid(p.smartContractInterfaceId, "parameters.smartContractInterfaceId", "smart contract interface");
      if (!ctx.rt.store.smartContractInterfaces.get(ctx.org.id, p.smartContractInterfaceId)) throw notFound(`smart contract interface not found: ${p.smartContractInterfaceId}`);
      ctx.rt.store.smartContractInterfaces.delete(p.smartContractInterfaceId);
      return { smartContractInterfaceId: p.smartContractInterfaceId };
    },
  }),
];
