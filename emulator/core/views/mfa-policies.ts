/** Wire forms of MFA policies and MFA statuses. */
import { toTimestamp } from "../clock.js";
import type { MfaChallengeRow, MfaPolicyRow, AuthMethod, RequiredStep } from "../store/mfa-policies.js";
import type { Wire } from "../../../contracts/wire.js";

function renderMethod(m: AuthMethod): Wire["v1AuthenticationMethod"] {
  return { type: m.type as Wire["v1AuthenticationType"], ...(m.id ? { id: m.id } : {}) };
}

function renderSteps(steps: RequiredStep[]): Wire["v1RequiredAuthenticationMethod"][] {
  return steps.map((s) => ({ any: s.any.map(renderMethod) }));
}

export function renderMfaPolicy(p: MfaPolicyRow): Wire["v1MfaPolicy"] {
  return {
    mfaPolicyId: p.id,
    mfaPolicyName: p.name,
    condition: p.condition,
    requiredAuthenticationMethods: renderSteps(p.requiredMethods),
    order: p.evaluationOrder,
    ...(p.notes !== null ? { notes: p.notes } : {}),
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
  };
}

export function renderMfaStatus(c: MfaChallengeRow): Wire["v1MfaStatus"] {
  return {
    mfaPolicyId: c.mfaPolicyId,
    userId: c.userId,
    satisfied: c.satisfied,
    // Only the methods that meet a step count as satisfied (a stamp that meets none is not listed).
    satisfiedMethods: c.satisfiedMethods.filter((m) => c.requiredMethods.some((s) => s.any.some((w) => w.type === m.type && (!w.id || w.id === m.id)))).map(renderMethod),
    requiredMethods: renderSteps(c.requiredMethods),
  };
}
