/** Invitations: create_invitations and delete_invitation, over invitations.ts. */
import { createInvitations, deleteInvitation } from "./invitations.js";
import { defineActivity } from "../../core/vocabulary/define.js";

export const invitationOperations = [
  defineActivity("create_invitations", {
    policy: { resource: "INVITATION", action: "CREATE", source: "inferred" },
    run: (ctx, p) => ({ invitationIds: createInvitations(ctx, p.invitations) }),
  }),

  defineActivity("delete_invitation", {
    policy: { resource: "INVITATION", action: "DELETE", source: "inferred" },
    run: (ctx, p) => ({ invitationId: deleteInvitation(ctx, p.invitationId) }),
  }),
];
