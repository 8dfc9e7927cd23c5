/** User tags: create_user_tag, update_user_tag, delete_user_tags. */
import { invalidArgument, notFound } from "../../errors.js";
import { newId } from "../../ids.js";
import { checkName, requireDistinct, requireUser } from "../lookups.js";
import type { ActivityContext, HandlerTable } from "../types.js";

function requireTag(ctx: ActivityContext, id: string) {
  const tag = ctx.rt.store.tags.get(ctx.org.id, id, "TAG_TYPE_USER");
  if (!tag) throw notFound(`user tag not found: ${id}`);
  return tag;
}

function requireFreeName(ctx: ActivityContext, name: string, field: string): void {
  checkName(name, field);
  if (ctx.rt.store.tags.byName(ctx.org.id, name, "TAG_TYPE_USER")) throw invalidArgument(`user tag name already in use: ${name}`, field);
}

export const userTagHandlers: HandlerTable = {
  create_user_tag(ctx, p: { userTagName: string; userIds: string[] }) {
    const { store } = ctx.rt;
    requireFreeName(ctx, p.userTagName, "parameters.userTagName");
    requireDistinct(p.userIds, "parameters.userIds");
    p.userIds.forEach((id, i) => requireUser(store, ctx.org.id, id, `parameters.userIds[${i}]`));
    const id = newId();
    store.tags.insert({ id, orgId: ctx.org.id, name: p.userTagName, tagType: "TAG_TYPE_USER", createdAt: ctx.now, updatedAt: ctx.now });
    for (const u of p.userIds) store.tags.addMember(id, u);
    return { userTagId: id, userIds: p.userIds };
  },

  update_user_tag(ctx, p: { userTagId: string; newUserTagName?: string; addUserIds: string[]; removeUserIds: string[] }) {
    const { store } = ctx.rt;
    const tag = requireTag(ctx, p.userTagId);
    if (p.newUserTagName !== undefined && p.newUserTagName !== tag.name) requireFreeName(ctx, p.newUserTagName, "parameters.newUserTagName");
    p.addUserIds.forEach((id, i) => requireUser(store, ctx.org.id, id, `parameters.addUserIds[${i}]`));
    p.removeUserIds.forEach((id, i) => requireUser(store, ctx.org.id, id, `parameters.removeUserIds[${i}]`));
    if (p.newUserTagName !== undefined) store.tags.rename(tag.id, p.newUserTagName, ctx.now);
    for (const u of p.addUserIds) store.tags.addMember(tag.id, u);
    for (const u of p.removeUserIds) store.tags.removeMember(tag.id, u);
    return { userTagId: tag.id };
  },

  delete_user_tags(ctx, p: { userTagIds: string[] }) {
    const { store } = ctx.rt;
    if (!p.userTagIds.length) throw invalidArgument("userTagIds must not be empty", "parameters.userTagIds");
    requireDistinct(p.userTagIds, "parameters.userTagIds");
    const userIds = new Set<string>();
    for (const id of p.userTagIds) {
      const tag = requireTag(ctx, id);
      for (const m of store.tags.members(tag.id)) userIds.add(m);
    }
    for (const id of p.userTagIds) store.tags.delete(id);
    return { userTagIds: p.userTagIds, userIds: [...userIds] };
  },
};
