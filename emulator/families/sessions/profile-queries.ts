/**
 * get_session_profile / get_session_profiles: the organization's own profiles and, in a
 * sub-organization, its parent's (sessions.ts), oldest first.
 */
import { notFound } from "../../core/errors.js";
import { isUuid } from "../../core/ids.js";
import { toTimestamp } from "../../core/clock.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import type { SessionProfileRow } from "./profiles-repository.js";
import type { Wire } from "../../../contracts/wire.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import { findSessionProfile, visibleSessionProfiles } from "./sessions.js";

export function renderSessionProfile(p: SessionProfileRow): Wire["v1SessionProfile"] {
  return {
    sessionProfileId: p.id,
    sessionProfileName: p.name,
    scope: p.scope,
    ...(p.expirationSeconds !== null ? { expirationSeconds: p.expirationSeconds } : {}),
    ...(p.notes !== null ? { notes: p.notes } : {}),
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
  };
}

export const sessionProfileQueryOperations = [
  defineQuery("get_session_profile", {
    run(ctx, b) {
      requireUuid(b.sessionProfileId, "sessionProfileId", "session profile");
      const p = isUuid(b.sessionProfileId) ? findSessionProfile(ctx.rt.store, ctx.org, b.sessionProfileId) : undefined;
      if (!p) throw notFound(`session profile not found: ${b.sessionProfileId}`);
      return { sessionProfile: renderSessionProfile(p) };
    },
  }),
  defineQuery("get_session_profiles", {
    run(ctx) {
      return { sessionProfiles: visibleSessionProfiles(ctx.rt.store, ctx.org).map(renderSessionProfile) };
    },
  }),
];
