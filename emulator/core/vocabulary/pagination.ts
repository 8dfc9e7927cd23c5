/**
 * Cursor pagination over an ordered list, as the list queries take it: `paginationOptions
 * {limit (1..100, default 10), before, after}`, where the cursors are ids of items in the
 * list. `after` an item are the ones that follow it, `before` it the ones that precede it
 * (then the page is the last `limit` of them). `keep` filters after the cursors are placed,
 * so a cursor may name an item the filter leaves out.
 */
import { invalidArgument } from "../errors.js";

export const DEFAULT_PAGE_LIMIT = 10;
export const MAX_PAGE_LIMIT = 100;

/** Reads `paginationOptions.limit` (a decimal string, 1..100, default 10). */
export function pageLimit(limit: string | undefined, field = "paginationOptions.limit"): number {
  if (limit === undefined || limit === "") return DEFAULT_PAGE_LIMIT;
  const n = /^\d+$/.test(limit) ? Number(limit) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_LIMIT) throw invalidArgument(`limit must be between 1 and ${MAX_PAGE_LIMIT}`, field);
  return n;
}

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

/** `pageOf`, with the page's `pageInfo` as the service answers it (whether more lie either side, and the first and last cursor). */
export function pageWithInfo<T>(items: T[], idOf: (item: T) => string, p: PaginationOptions | undefined) {
  const got = pageOf(items, idOf, p ?? {});
  const first = got[0];
  const last = got[got.length - 1];
  const firstAt = first ? items.indexOf(first) : -1;
  const lastAt = last ? items.indexOf(last) : -1;
  return {
    items: got,
    pageInfo: {
      hasNextPage: lastAt >= 0 && lastAt < items.length - 1,
      hasPreviousPage: firstAt > 0,
      ...(first ? { startCursor: idOf(first) } : {}),
      ...(last ? { endCursor: idOf(last) } : {}),
    },
  };
}
