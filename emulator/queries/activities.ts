/** get_activity and list_activities (newest first, `before`/`after` activity-id cursors). */
import { invalidArgument, notFound } from "../errors.js";
import { requireUuid } from "../domain/lookups.js";
import { renderActivity } from "../views/activity.js";
import type { QueryContext } from "../operations/contexts.js";
import { defineQuery } from "../operations/define.js";
import { pageLimit } from "./pagination.js";

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
