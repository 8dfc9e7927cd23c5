/**
 * User tags and private-key tags: the same three activities over two member kinds, which
 * differ only in their wire field names and in what a member id must refer to.
 */
import { invalidArgument, notFound } from "../../errors.js";
import { newId } from "../../ids.js";
import type { TagType } from "../../store/tags.js";
import { checkName, requireDistinct, requireUser } from "../lookups.js";
import { requirePrivateKey } from "./private-keys.js";
import type { ActivityContext, HandlerTable } from "../types.js";

type TagKind = {
  type: TagType;
  noun: string; // "user tag"
  tag: string; // "userTag" -> userTagName, userTagId, userTagIds, newUserTagName
  member: string; // "user" -> userIds, addUserIds, removeUserIds
  requireMember(ctx: ActivityContext, id: string, field: string): void;
};

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

function handlersFor(k: TagKind, ops: { create: string; update: string; delete: string }): HandlerTable {
  const ids = `${k.member}Ids`;
  const requireTag = (ctx: ActivityContext, id: string) => {
    const tag = ctx.rt.store.tags.get(ctx.org.id, id, k.type);
    if (!tag) throw notFound(`${k.noun} not found: ${id}`);
    return tag;
  };
  const requireFreeName = (ctx: ActivityContext, name: string, field: string) => {
    checkName(name, field);
    if (ctx.rt.store.tags.byName(ctx.org.id, name, k.type)) throw invalidArgument(`${k.noun} name already in use: ${name}`, field);
  };
  const requireMembers = (ctx: ActivityContext, list: string[], field: string) => {
    requireDistinct(list, field);
    list.forEach((id, i) => k.requireMember(ctx, id, `${field}[${i}]`));
  };
  return {
    [ops.create](ctx, p: Record<string, unknown>) {
      const name = p[`${k.tag}Name`] as string;
      const members = p[ids] as string[];
      requireFreeName(ctx, name, `parameters.${k.tag}Name`);
      requireMembers(ctx, members, `parameters.${ids}`);
      const id = newId();
      ctx.rt.store.tags.insert({ id, orgId: ctx.org.id, name, tagType: k.type, createdAt: ctx.now, updatedAt: ctx.now });
      for (const m of members) ctx.rt.store.tags.addMember(id, m);
      return { [`${k.tag}Id`]: id, [ids]: members };
    },

    [ops.update](ctx, p: Record<string, unknown>) {
      const tag = requireTag(ctx, p[`${k.tag}Id`] as string);
      const newName = p[`new${cap(k.tag)}Name`] as string | undefined;
      const add = p[`add${cap(ids)}`] as string[];
      const remove = p[`remove${cap(ids)}`] as string[];
      if (newName !== undefined && newName !== tag.name) requireFreeName(ctx, newName, `parameters.new${cap(k.tag)}Name`);
      requireMembers(ctx, add, `parameters.add${cap(ids)}`);
      requireMembers(ctx, remove, `parameters.remove${cap(ids)}`);
      if (newName !== undefined) ctx.rt.store.tags.rename(tag.id, newName, ctx.now);
      for (const m of add) ctx.rt.store.tags.addMember(tag.id, m);
      for (const m of remove) ctx.rt.store.tags.removeMember(tag.id, m);
      return { [`${k.tag}Id`]: tag.id };
    },

    [ops.delete](ctx, p: Record<string, unknown>) {
      const tagIds = p[`${k.tag}Ids`] as string[];
      if (!tagIds.length) throw invalidArgument(`${k.tag}Ids must not be empty`, `parameters.${k.tag}Ids`);
      requireDistinct(tagIds, `parameters.${k.tag}Ids`);
      const members = new Set<string>();
      for (const id of tagIds) for (const m of ctx.rt.store.tags.members(requireTag(ctx, id).id)) members.add(m);
      for (const id of tagIds) ctx.rt.store.tags.delete(id);
      return { [`${k.tag}Ids`]: tagIds, [ids]: [...members] };
    },
  };
}

export const tagHandlers: HandlerTable = {
  ...handlersFor(
    { type: "TAG_TYPE_USER", noun: "user tag", tag: "userTag", member: "user", requireMember: (ctx, id, f) => void requireUser(ctx.rt.store, ctx.org.id, id, f) },
    { create: "create_user_tag", update: "update_user_tag", delete: "delete_user_tags" },
  ),
  ...handlersFor(
    { type: "TAG_TYPE_PRIVATE_KEY", noun: "private key tag", tag: "privateKeyTag", member: "privateKey", requireMember: (ctx, id, f) => void requirePrivateKey(ctx, id, f) },
    { create: "create_private_key_tag", update: "update_private_key_tag", delete: "delete_private_key_tags" },
  ),
};
