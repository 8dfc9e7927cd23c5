/**
 * Invitations: create_invitations records an invitation to join the organization per
 * receiver and sends each receiver an invitation email (it lands in the mailbox with the
 * invitation id); delete_invitation withdraws one. Accepting an invitation has no route in the
 * published API (only its intent remains), so invitations are never consumed here.
 */
import { invalidArgument, notFound, resourceExhausted } from "../../errors.js";
import { newId } from "../../ids.js";
import { checkEmail, checkName, requireUser, requireUuid } from "../../domain/lookups.js";
import { requireUserTags } from "../../domain/users.js";
import { defineActivity } from "../../operations/define.js";

/** Invitations an organization may hold at once (resource limits). */
export const MAX_INVITATIONS_PER_ORG = 100;

export const invitationOperations = [
  defineActivity("create_invitations", {
    policy: { resource: "INVITATION", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const { store } = ctx.rt;
      if (!p.invitations.length) throw invalidArgument("invitations must not be empty", "parameters.invitations");
      p.invitations.forEach((inv, i) => {
        const f = `parameters.invitations[${i}]`;
        checkName(inv.receiverUserName, `${f}.receiverUserName`);
        checkEmail(inv.receiverUserEmail, `${f}.receiverUserEmail`);
        requireUserTags(ctx, inv.receiverUserTags, `${f}.receiverUserTags`);
        requireUser(store, ctx.org.id, inv.senderUserId, `${f}.senderUserId`);
      });
      if (store.invitations.countForOrg(ctx.org.id) + p.invitations.length > MAX_INVITATIONS_PER_ORG)
        throw resourceExhausted(`organization has exceeded maximum invitations (${MAX_INVITATIONS_PER_ORG})`);
      const invitationIds = p.invitations.map((inv) => {
        const id = newId();
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
        store.mailbox.deliver({
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
      return { invitationIds };
    },
  }),

  defineActivity("delete_invitation", {
    policy: { resource: "INVITATION", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      requireUuid(p.invitationId, "parameters.invitationId", "invitation");
      if (!ctx.rt.store.invitations.get(ctx.org.id, p.invitationId)) throw notFound(`invitation not found: ${p.invitationId}`);
      ctx.rt.store.invitations.delete(p.invitationId);
      return { invitationId: p.invitationId };
    },
  }),
];
