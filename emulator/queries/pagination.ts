/**
 * Cursor pagination over an ordered list, as the list queries take it: `paginationOptions
 * {limit (1..100, default 10), before, after}`, where the cursors are ids of items in the
 * list. `after` an item are the ones that follow it, `before` it the ones that precede it
 * (then the page is the last `limit` of them). `keep` filters after the cursors are placed,
 * so a cursor may name an item the filter leaves out.
 */
import { invalidArgument } from "../errors.js";
import { pageLimit } from "./activities.js";

export type PaginationOptions = { limit?: string; before?: string; after?: string };

export function pageOf<T>(items: T[], idOf: (item: T) => string, p: PaginationOptions = {}, keep: (item: T) => boolean = () => true): T[] {
  const limit = pageLimit(p.limit);
  const at = (id: string | undefined, field: string) => {
    if (!id) return undefined;
    const i = items.findIndex((item) => idOf(item) === id);
    if (i < 0) throw invalidArgument(`unknown pagination cursor: ${id}`, field);
    return i;
  };
  const after = at(p.after, "paginationOptions.after");
  const before = at(p.before, "paginationOptions.before");
  const window = items.filter((item, i) => (after === undefined || i > after) && (before === undefined || i < before) && keep(item));
  return before !== undefined && after === undefined ? window.slice(-limit) : window.slice(0, limit);
}
