/** User tags and private-key tags over tags.ts (userTags, privateKeyTags); the entries name the wire fields. */
import { privateKeyTags, userTags } from "./tags.js";
import { defineActivity } from "../../core/vocabulary/define.js";

export const tagOperations = [
  defineActivity("create_user_tag", {
    policy: { resource: "USER", action: "CREATE", source: "documented" },
    run(ctx, p) {
      const userTagId = userTags.create(ctx, p.userTagName, p.userIds, { name: "parameters.userTagName", members: "parameters.userIds" });
      return { userTagId, userIds: p.userIds };
    },
  }),
  defineActivity("update_user_tag", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run(ctx, p) {
      const fields = { newName: "parameters.newUserTagName", add: "parameters.addUserIds", remove: "parameters.removeUserIds" };
      return { userTagId: userTags.update(ctx, { tagId: p.userTagId, newName: p.newUserTagName, add: p.addUserIds, remove: p.removeUserIds }, fields) };
    },
  }),
  defineActivity("delete_user_tags", {
    policy: { resource: "USER", action: "DELETE", source: "documented" },
    run(ctx, p) {
      return { userTagIds: p.userTagIds, userIds: userTags.delete(ctx, p.userTagIds, "parameters.userTagIds") };
    },
  }),
  defineActivity("create_private_key_tag", {
    policy: { resource: "PRIVATE_KEY", action: "CREATE", source: "documented" },
    run(ctx, p) {
      const fields = { name: "parameters.privateKeyTagName", members: "parameters.privateKeyIds" };
      return { privateKeyTagId: privateKeyTags.create(ctx, p.privateKeyTagName, p.privateKeyIds, fields), privateKeyIds: p.privateKeyIds };
    },
  }),
  defineActivity("update_private_key_tag", {
    policy: { resource: "PRIVATE_KEY", action: "UPDATE", source: "documented" },
    run(ctx, p) {
      const fields = { newName: "parameters.newPrivateKeyTagName", add: "parameters.addPrivateKeyIds", remove: "parameters.removePrivateKeyIds" };
      const update = { tagId: p.privateKeyTagId, newName: p.newPrivateKeyTagName, add: p.addPrivateKeyIds, remove: p.removePrivateKeyIds };
      return { privateKeyTagId: privateKeyTags.update(ctx, update, fields) };
    },
  }),
  defineActivity("delete_private_key_tags", {
    policy: { resource: "PRIVATE_KEY", action: "DELETE", source: "documented" },
    run(ctx, p) {
      return { privateKeyTagIds: p.privateKeyTagIds, privateKeyIds: privateKeyTags.delete(ctx, p.privateKeyTagIds, "parameters.privateKeyTagIds") };
    },
  }),
];
