import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { Store } from "../../core/store/index.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import type { Runtime } from "../../core/runtime.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { listSubOrgs, SUBORG_FILTER_TYPES } from "./queries.js";

/**
 * list_suborgs reads pages by keyset from the cursor; the oracle here is the definition the
 * API documents, applied to the whole list in creation order: `after` the items that follow the
 * cursor, `before` alone the last `limit` that precede it, both the first `limit` between them,
 * the filter applied after the cursors are placed.
 */
function setup() {
  const store = Store.open(":memory:");
  const org = (id: string, name: string, parentId: string | null, createdAt: number): OrganizationRow => {
    const o = { id, name, parentId, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt, updatedAt: createdAt };
    store.organizations.insert(o);
    return o;
  };
  const parent = org(randomUUID(), "parent", null, 0);
  const other = org(randomUUID(), "other parent", null, 0);
  const live: OrganizationRow[] = [];
  // 37 sub-organizations, several created in the same millisecond (ties broken by id), some deleted, some of another parent.
  for (let i = 0; i < 40; i++) {
    const o = org(randomUUID(), i % 3 ? "plain" : "marked", i === 7 ? other.id : parent.id, 1000 + Math.floor(i / 4));
    store.subOrganizations.create(o.id, {});
    if (i === 11 || i === 30) store.subOrganizations.tombstone(o.id, 5000);
    else if (i !== 7) live.push(o);
  }
  live.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  const ctx = { rt: { store } as unknown as Runtime, now: 0, org: parent, caller: undefined } as unknown as QueryContext;
  return { store, ctx, live, other };
}

function expected(all: OrganizationRow[], p: { limit?: string; before?: string; after?: string }, keep: (o: OrganizationRow) => boolean): string[] {
  const limit = p.limit ? Number(p.limit) : 10;
  const a = p.after ? all.findIndex((o) => o.id === p.after) : -1;
  const b = p.before ? all.findIndex((o) => o.id === p.before) : all.length;
  const window = all.slice(a + 1, Math.max(a + 1, b)).filter(keep);
  return (p.before && !p.after ? window.slice(-limit) : window.slice(0, limit)).map((o) => o.id);
}

describe("list_suborgs keyset pages", () => {
  it("equal the documented page over the whole list, for every cursor, direction and limit", () => {
    const { ctx, live } = setup();
    const ids = live.map((o) => o.id);
    for (const limit of ["1", "3", "10", "100"]) {
      expect(listSubOrgs(ctx, { paginationOptions: { limit } }, SUBORG_FILTER_TYPES, false).organizationIds).toEqual(expected(live, { limit }, () => true));
      for (const cursor of ids) {
        for (const p of [{ limit, after: cursor }, { limit, before: cursor }, { limit, after: ids[5]!, before: cursor }]) {
          expect(listSubOrgs(ctx, { paginationOptions: p }, SUBORG_FILTER_TYPES, false).organizationIds).toEqual(expected(live, p, () => true));
        }
      }
    }
  });

  it("apply a filter after the cursors, reading past non-matching rows", () => {
    const { ctx, live } = setup();
    const marked = (o: OrganizationRow) => o.name === "marked";
    for (const cursor of live.map((o) => o.id)) {
      for (const p of [{ limit: "2", after: cursor }, { limit: "2", before: cursor }, {}]) {
        expect(listSubOrgs(ctx, { filterType: "NAME", filterValue: "marked", paginationOptions: p }, SUBORG_FILTER_TYPES, false).organizationIds).toEqual(expected(live, p, marked));
      }
    }
  });

  it("refuse a cursor that is not a live sub-organization of the caller's organization", () => {
    const { ctx, store, other } = setup();
    const foreign = store.organizations.children(other.id)[0]!.id;
    const deleted = store.organizations.children(ctx.org.id).find((o) => store.subOrganizations.isDeleted(o.id))!.id;
    for (const id of [foreign, deleted, randomUUID()]) {
      expect(() => listSubOrgs(ctx, { paginationOptions: { after: id } }, SUBORG_FILTER_TYPES, false)).toThrow(/unknown pagination cursor/);
      expect(() => listSubOrgs(ctx, { paginationOptions: { before: id } }, SUBORG_FILTER_TYPES, false)).toThrow(/unknown pagination cursor/);
    }
  });
});
