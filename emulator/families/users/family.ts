/** The users family: users and API-only users, their credentials (API keys, authenticators), tags and invitations. */
import { defineFamily } from "../../core/family.js";
import { userOperations } from "./activities.js";
import { apiOnlyUserOperations } from "./api-only-users.js";
import { apiKeyOperations } from "./api-key-activities.js";
import { authenticatorOperations } from "./authenticator-activities.js";
import { tagOperations } from "./tag-activities.js";
import { invitationOperations } from "./invitation-activities.js";
import { userQueryOperations } from "./queries.js";
import { Invitations } from "./invitations-repository.js";

export const usersFamily = defineFamily({
  name: "users",
  operations: [...userOperations, ...apiOnlyUserOperations, ...apiKeyOperations, ...authenticatorOperations, ...tagOperations, ...invitationOperations, ...userQueryOperations],
  repositories: (db) => ({ invitations: new Invitations(db) }),
});
