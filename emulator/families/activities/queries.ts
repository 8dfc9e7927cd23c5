/** get_activity and list_activities (newest first, `before`/`after` activity-id cursors). */
import { invalidArgument, notFound } from "../../core/errors.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import { renderActivity } from "../../core/views/activity.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import { pageLimit } from "../../core/vocabulary/pagination.js";

function cursorSeq(ctx: QueryContext, id: string | undefined, field: string): number | undefined {
  if (!id) return undefined;
  requireUuid(id, field, "activity");
  const a = ctx.rt.store.activities.get(ctx.org.id, id);
  if (!a) throw invalidArgument(`cursor activity not found: ${id}`, field);
  return a.seq;
}

export const activityQueryOperations = [
  defineQuery("get_activity", {
    run(ctx, b) {
      requireUuid(b.activityId, "activityId", "activity");
      const a = ctx.rt.store.activities.get(ctx.org.id, b.activityId);
      if (!a) throw notFound(`activity not found: ${b.activityId}`);
      return { activity: renderActivity(ctx.rt, a) };
    },
  }),

  defineQuery("list_activities", {
    run(ctx, b) {
      const p = b.paginationOptions ?? {};
      const rows = ctx.rt.store.activities.list({
        orgId: ctx.org.id,
        statuses: b.filterByStatus,
        types: b.filterByType,
        limit: pageLimit(p.limit),
        before: cursorSeq(ctx, p.before, "paginationOptions.before"),
        after: cursorSeq(ctx, p.after, "paginationOptions.after"),
      });
      return { activities: rows.map((a) => renderActivity(ctx.rt, a)) };
    },
  }),
];
