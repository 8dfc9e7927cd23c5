/**
 * User tags and private-key tags: the same three activities over two member kinds, which
 * differ only in their wire field names and in what a member id must refer to. An
 * organization holds at most MAX_TAGS_PER_ORG tags (a sub-organization MAX_TAGS_PER_SUB_ORG).
 */
import { invalidArgument, notFound, resourceExhausted } from "../../core/errors.js";
import type { TagType } from "../../core/store/tags.js";
import { checkName, requireDistinct, requireUser } from "../../core/vocabulary/lookups.js";
import { requirePrivateKey } from "../wallets/index.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

/** The service's tag limits: 100 per organization, 10 per sub-organization (user and private-key tags together). */
export const MAX_TAGS_PER_ORG = 100;
export const MAX_TAGS_PER_SUB_ORG = 10;

function requireRoomForTag(ctx: DomainContext): void {
  const max = ctx.org.parentId ? MAX_TAGS_PER_SUB_ORG : MAX_TAGS_PER_ORG;
  if (ctx.rt.store.tags.count(ctx.org.id) >= max) throw resourceExhausted(`organization has reached the maximum of ${max} tags`);
}

type TagKind = {
  type: TagType;
  noun: string; // "user tag"
  requireMember(ctx: DomainContext, id: string, field: string): void;
};

/** The three tag activities over one member kind, on normalized inputs (`f` names their fields). */
function tagActions(k: TagKind) {
  const requireTag = (ctx: DomainContext, id: string) => {
    const tag = ctx.rt.store.tags.get(ctx.org.id, id, k.type);
    if (!tag) throw notFound(`${k.noun} not found: ${id}`);
    return tag;
  };
  const requireFreeName = (ctx: DomainContext, name: string, field: string) => {
    checkName(name, field);
    if (ctx.rt.store.tags.byName(ctx.org.id, name, k.type)) throw invalidArgument(`${k.noun} name already in use: ${name}`, field);
  };
  const requireMembers = (ctx: DomainContext, list: string[], field: string) => {
    requireDistinct(list, field);
    list.forEach((id, i) => k.requireMember(ctx, id, `${field}[${i}]`));
  };
  return {
    create(ctx: DomainContext, name: string, members: string[], f: { name: string; members: string }): string {
      requireFreeName(ctx, name, f.name);
      requireMembers(ctx, members, f.members);
      requireRoomForTag(ctx);
      const id = ctx.rt.random.uuid();
      ctx.rt.store.tags.insert({ id, orgId: ctx.org.id, name, tagType: k.type, createdAt: ctx.now, updatedAt: ctx.now });
      for (const m of members) ctx.rt.store.tags.addMember(id, m);
      return id;
    },
    update(ctx: DomainContext, p: { tagId: string; newName?: string; add: string[]; remove: string[] }, f: { newName: string; add: string; remove: string }): string {
      const tag = requireTag(ctx, p.tagId);
      if (p.newName !== undefined && p.newName !== tag.name) requireFreeName(ctx, p.newName, f.newName);
      requireMembers(ctx, p.add, f.add);
      requireMembers(ctx, p.remove, f.remove);
      if (p.newName !== undefined) ctx.rt.store.tags.rename(tag.id, p.newName, ctx.now);
      for (const m of p.add) ctx.rt.store.tags.addMember(tag.id, m);
      for (const m of p.remove) ctx.rt.store.tags.removeMember(tag.id, m);
      return tag.id;
    },
    /** Deletes the tags; returns the ids of every member they had. */
    delete(ctx: DomainContext, tagIds: string[], field: string): string[] {
      if (!tagIds.length) throw invalidArgument(`${field.replace("parameters.", "")} must not be empty`, field);
      requireDistinct(tagIds, field);
      const members = new Set<string>();
      for (const id of tagIds) for (const m of ctx.rt.store.tags.members(requireTag(ctx, id).id)) members.add(m);
      for (const id of tagIds) ctx.rt.store.tags.delete(id);
      return [...members];
    },
  };
}

export const userTags = tagActions({ type: "TAG_TYPE_USER", noun: "user tag", requireMember: (ctx, id, f) => void requireUser(ctx.rt.store, ctx.org.id, id, f) });
export const privateKeyTags = tagActions({ type: "TAG_TYPE_PRIVATE_KEY", noun: "private key tag", requireMember: (ctx, id, f) => void requirePrivateKey(ctx, id, f) });

/** Tag ids a user is given (create_users, update_user, invitations): distinct user tags of the organization. */
export function requireUserTags(ctx: DomainContext, tagIds: string[], field: string): void {
  requireDistinct(tagIds, field);
  for (const id of tagIds) {
    if (!ctx.rt.store.tags.get(ctx.org.id, id, "TAG_TYPE_USER")) throw invalidArgument(`user tag not found: ${id}`, field);
  }
}
