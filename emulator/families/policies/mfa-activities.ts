/**
 * MFA policies: create, update, delete (per user). A policy is refused at creation (and on
 * update) when its user could not satisfy it today; it is enforced by core/engine/mfa.ts.
 */
import { invalidArgument, notFound } from "../../core/errors.js";
import { isUuid } from "../../core/ids.js";
import { parseExpression } from "../../policy/index.js";
import type { Store } from "../../core/store/index.js";
import type { UserRow } from "../../core/store/users.js";
import type { MfaPolicyRow, RequiredStep } from "../../core/store/mfa-policies.js";
import { checkName, requireUser, requireUuid, withFieldPrefix } from "../../core/vocabulary/lookups.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { defineActivity } from "../../core/vocabulary/define.js";

/** How the satisfiability error names each type (the service's wording is known for "Passkey" only). */
const METHOD_NAMES: Record<string, string> = {
  AUTHENTICATION_TYPE_PASSKEY: "Passkey",
  AUTHENTICATION_TYPE_API_KEY: "ApiKey",
  AUTHENTICATION_TYPE_SESSION: "Session",
  AUTHENTICATION_TYPE_EMAIL_OTP: "EmailOtp",
  AUTHENTICATION_TYPE_SMS_OTP: "SmsOtp",
  AUTHENTICATION_TYPE_OAUTH: "Oauth",
};

type StepParams = { any: { type: string; id?: string }[] };

/** Whether the user has, today, a credential that proves this method (docs: "The user must already be able to satisfy the policy"). */
function canProve(store: Store, user: UserRow, m: { type: string; id?: string }, now: number): boolean {
  const id = m.id || undefined;
  switch (m.type) {
    case "AUTHENTICATION_TYPE_PASSKEY":
      return store.authenticators.forUser(user.id).some((a) => !id || a.id === id);
    case "AUTHENTICATION_TYPE_API_KEY":
      return store.apiKeys.forUser(user.id).some((k) => !/SESSION/.test(k.credentialType) && (k.expiresAt === null || k.expiresAt > now) && (!id || k.id === id));
    case "AUTHENTICATION_TYPE_EMAIL_OTP":
      return user.email !== null;
    case "AUTHENTICATION_TYPE_SMS_OTP":
      return user.phone !== null;
    case "AUTHENTICATION_TYPE_OAUTH":
      return store.oauthProviders.forUser(user.id).some((p) => !id || p.id === id);
    default:
      // A session can always be obtained.
      return true;
  }
}

/** Validates the policy's parts, naming the request field; returns the steps as stored. */
function validate(ctx: ActivityContext, user: UserRow, p: { mfaPolicyName: string; condition: string; requiredAuthenticationMethods: StepParams[]; order: string }): RequiredStep[] {
  checkName(p.mfaPolicyName, "parameters.mfaPolicyName");
  if (!p.condition.trim()) throw invalidArgument("condition must not be empty", "parameters.condition");
  withFieldPrefix("parameters", () => parseExpression(p.condition, { label: "condition" }));
  if (!/^\d+$/.test(p.order) || !Number.isSafeInteger(Number(p.order))) throw invalidArgument("order must be a non-negative integer", "parameters.order");
  const steps = p.requiredAuthenticationMethods;
  if (!steps.length) throw invalidArgument("requiredAuthenticationMethods must not be empty", "parameters.requiredAuthenticationMethods");
  return steps.map((step, i) => {
    const f = `parameters.requiredAuthenticationMethods[${i}]`;
    if (!step.any.length) throw invalidArgument(`${f}.any must not be empty`, `${f}.any`);
    step.any.forEach((m, j) => {
      if (!m.id) return;
      if (m.type === "AUTHENTICATION_TYPE_EMAIL_OTP" || m.type === "AUTHENTICATION_TYPE_SMS_OTP") throw invalidArgument(`${m.type} has no id: email and SMS OTP methods cannot name one`, `${f}.any[${j}].id`);
      requireUuid(m.id, `${f}.any[${j}].id`, "authentication method");
    });
    if (!step.any.some((m) => canProve(ctx.rt.store, user, m, ctx.now))) {
      const names = JSON.stringify(step.any.map((m) => METHOD_NAMES[m.type] ?? m.type));
      throw invalidArgument(
        `user (${user.id}) cannot satisfy mfa policy requirement: mfa policy '${p.mfaPolicyName}' requires one of ${names} but user does not, or will not, have a matching credential`,
        f,
      );
    }
    return { any: step.any.map((m) => ({ type: m.type, ...(m.id ? { id: m.id } : {}) })) };
  });
}

function requireMfaPolicy(ctx: ActivityContext, userId: string, id: string): MfaPolicyRow {
  requireUuid(id, "parameters.mfaPolicyId", "mfa policy");
  const p = isUuid(userId) ? ctx.rt.store.mfaPolicies.get(ctx.org.id, userId, id) : undefined;
  if (!p) throw notFound(`mfa policy not found: ${id}`);
  return p;
}

export const mfaPolicyOperations = [
  defineActivity("create_mfa_policy", {
    policy: { resource: "MFA_POLICY", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const user = requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId");
      const requiredMethods = validate(ctx, user, p);
      const id = ctx.rt.random.uuid();
      ctx.rt.store.mfaPolicies.insert({
        id,
        orgId: ctx.org.id,
        userId: user.id,
        name: p.mfaPolicyName,
        condition: p.condition,
        requiredMethods,
        evaluationOrder: Number(p.order),
        notes: p.notes ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return { mfaPolicyId: id };
    },
  }),

  defineActivity("update_mfa_policy", {
    policy: { resource: "MFA_POLICY", action: "UPDATE", source: "inferred" },
    run(ctx, p) {
      const user = requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId");
      const cur = requireMfaPolicy(ctx, user.id, p.mfaPolicyId);
      const next = {
        mfaPolicyName: p.mfaPolicyName ?? cur.name,
        condition: p.condition ?? cur.condition,
        requiredAuthenticationMethods: p.requiredAuthenticationMethods ?? cur.requiredMethods,
        order: p.order ?? String(cur.evaluationOrder),
      };
      const requiredMethods = validate(ctx, user, next);
      ctx.rt.store.mfaPolicies.update(cur.id, {
        name: next.mfaPolicyName,
        condition: next.condition,
        requiredMethods,
        evaluationOrder: Number(next.order),
        notes: p.notes ?? cur.notes,
        updatedAt: ctx.now,
      });
      return { mfaPolicyId: cur.id };
    },
  }),

  defineActivity("delete_mfa_policy", {
    policy: { resource: "MFA_POLICY", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      const user = requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId");
      ctx.rt.store.mfaPolicies.delete(requireMfaPolicy(ctx, user.id, p.mfaPolicyId).id);
      return { mfaPolicyId: p.mfaPolicyId };
    },
  }),
];
