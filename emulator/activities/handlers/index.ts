/** Every emulated activity, by operation name (the last segment of its submit path). */
import type { HandlerTable } from "../types.js";
import { userHandlers } from "./users.js";
import { apiKeyHandlers } from "./api-keys.js";
import { userTagHandlers } from "./user-tags.js";
import { authenticatorHandlers } from "./authenticators.js";

export const activityHandlers: HandlerTable = {
  ...userHandlers,
  ...apiKeyHandlers,
  ...userTagHandlers,
  ...authenticatorHandlers,
};
