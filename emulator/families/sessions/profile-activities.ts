/**
 * create_session_profile: an immutable profile (name, scope, optional longest lifetime, notes)
 * that login activities may name with `sessionProfileId` (sessions.ts).
 * Profiles are created by the parent organization; a sub-organization may not create one.
 */
import { invalidArgument, isTurnkeyError } from "../../core/errors.js";
import { parseExpression } from "../../policy/index.js";
import { checkName, INVALID_ACTIVITY_CALLER } from "../../core/vocabulary/lookups.js";
import { sessionSeconds } from "./sessions.js";
import { defineActivity } from "../../core/vocabulary/define.js";

/** The scope parses as a policy-language expression (the keywords of a policy condition). */
function checkScope(scope: string): void {
  try {
    parseExpression(scope, { label: "condition" });
  } catch (e) {
    if (isTurnkeyError(e)) throw invalidArgument(e.message.replace("invalid policy condition", "invalid session profile scope"), "parameters.scope");
    throw e;
  }
}

export const sessionProfileOperations = [
  defineActivity("create_session_profile", {
    policy: { resource: "SESSION_PROFILE", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      if (ctx.org.parentId) throw invalidArgument(INVALID_ACTIVITY_CALLER, undefined, "INVALID_ACTIVITY_CALLER");
      checkName(p.sessionProfileName, "parameters.sessionProfileName");
      checkScope(p.scope);
      const expirationSeconds = p.expirationSeconds === undefined || p.expirationSeconds === "" ? null : String(sessionSeconds(p.expirationSeconds, "parameters.expirationSeconds"));
      const id = ctx.rt.random.uuid();
      ctx.rt.store.sessionProfiles.insert({
        id,
        orgId: ctx.org.id,
        name: p.sessionProfileName,
        scope: p.scope,
        expirationSeconds,
        notes: p.notes ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return { sessionProfileId: id };
    },
  }),
];
