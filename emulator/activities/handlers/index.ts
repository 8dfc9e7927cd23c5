/** Every emulated activity, by operation name (the last segment of its submit path). */
import type { HandlerTable } from "../types.js";
import { userHandlers } from "./users.js";
import { apiKeyHandlers } from "./api-keys.js";
import { tagHandlers } from "./tags.js";
import { authenticatorHandlers } from "./authenticators.js";
import { walletHandlers } from "./wallets.js";
import { privateKeyHandlers } from "./private-keys.js";
import { signingHandlers } from "./signing.js";
import { policyHandlers } from "./policies.js";
import { organizationHandlers } from "./organization.js";

export const activityHandlers: HandlerTable = {
  ...userHandlers,
  ...apiKeyHandlers,
  ...tagHandlers,
  ...authenticatorHandlers,
  ...walletHandlers,
  ...privateKeyHandlers,
  ...signingHandlers,
  ...policyHandlers,
  ...organizationHandlers,
};
