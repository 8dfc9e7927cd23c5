/** The users family: users and API-only users, their credentials (API keys, authenticators), tags and invitations. */
import { defineFamily } from "../../core/family.js";
import { userOperations } from "../../activities/handlers/users.js";
import { apiOnlyUserOperations } from "../../activities/handlers/api-only-users.js";
import { apiKeyOperations } from "../../activities/handlers/api-keys.js";
import { authenticatorOperations } from "../../activities/handlers/authenticators.js";
import { tagOperations } from "../../activities/handlers/tags.js";
import { invitationOperations } from "../../activities/handlers/invitations.js";
import { userQueryOperations } from "../../queries/users.js";
import { Invitations } from "../../store/invitations.js";

export const usersFamily = defineFamily({
  name: "users",
  operations: [...userOperations, ...apiOnlyUserOperations, ...apiKeyOperations, ...authenticatorOperations, ...tagOperations, ...invitationOperations, ...userQueryOperations],
  repositories: (db) => ({ invitations: new Invitations(db) }),
});
