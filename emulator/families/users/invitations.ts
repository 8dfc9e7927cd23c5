/**
 * Invitations: create_invitations records an invitation to join the organization per
 * receiver and sends each receiver an invitation email (it lands in the mailbox with the
 * invitation id); delete_invitation withdraws one. Accepting an invitation has no route in the
 * published API (only its intent remains), so invitations are never consumed here.
 */
import { invalidArgument, notFound, resourceExhausted } from "../../core/errors.js";
import { checkEmail, checkName, requireUser, requireUuid } from "../../core/vocabulary/lookups.js";
import { requireUserTags } from "./tags.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";
import type { Runtime } from "../../core/runtime.js";
import type { InvitationRow } from "./invitations-repository.js";
import { deliverMail } from "../mailbox/index.js";

/** Invitations an organization may hold at once (resource limits). */
export const MAX_INVITATIONS_PER_ORG = 100;

export type InvitationParams = { receiverUserName: string; receiverUserEmail: string; receiverUserTags: string[]; accessType: string; senderUserId: string };

/** create_invitations: all or none; returns the invitation ids. */
export function createInvitations(ctx: DomainContext, invitations: InvitationParams[]): string[] {
  const { store } = ctx.rt;
  if (!invitations.length) throw invalidArgument("invitations must not be empty", "parameters.invitations");
  invitations.forEach((inv, i) => {
    const f = `parameters.invitations[${i}]`;
    checkName(inv.receiverUserName, `${f}.receiverUserName`);
    checkEmail(inv.receiverUserEmail, `${f}.receiverUserEmail`);
    requireUserTags(ctx, inv.receiverUserTags, `${f}.receiverUserTags`);
    requireUser(store, ctx.org.id, inv.senderUserId, `${f}.senderUserId`);
  });
  if (store.invitations.countForOrg(ctx.org.id) + invitations.length > MAX_INVITATIONS_PER_ORG)
    throw resourceExhausted(`organization has exceeded maximum invitations (${MAX_INVITATIONS_PER_ORG})`);
  return invitations.map((inv) => {
    const id = ctx.rt.random.uuid();
    store.invitations.insert({
      id,
      orgId: ctx.org.id,
      senderUserId: inv.senderUserId,
      receiverName: inv.receiverUserName,
      receiverEmail: inv.receiverUserEmail,
      receiverTags: inv.receiverUserTags,
      accessType: inv.accessType,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    const sender = store.users.get(ctx.org.id, inv.senderUserId)!;
    deliverMail(ctx.rt, {
      contact: inv.receiverUserEmail,
      channel: "email",
      subject: `${sender.name} invited you to join ${ctx.org.name}`,
      body: `Hello ${inv.receiverUserName}, ${sender.name} invited you to join the organization ${ctx.org.name} (${ctx.org.id}). Invitation id: ${id}.`,
      orgId: ctx.org.id,
      createdAt: ctx.now,
      extra: { kind: "invitation", invitationId: id, senderUserId: inv.senderUserId, accessType: inv.accessType },
    });
    return id;
  });
}

/** delete_invitation. */
export function deleteInvitation(ctx: DomainContext, invitationId: string): string {
  requireUuid(invitationId, "parameters.invitationId", "invitation");
  if (!ctx.rt.store.invitations.get(ctx.org.id, invitationId)) throw notFound(`invitation not found: ${invitationId}`);
  ctx.rt.store.invitations.delete(invitationId);
  return invitationId;
}

/** The organization's invitations (its data view lists them). */
export function invitationsOf(rt: Pick<Runtime, "store">, orgId: string): InvitationRow[] {
  return rt.store.invitations.forOrg(orgId);
}
