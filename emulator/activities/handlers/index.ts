/** Every emulated activity, by operation name (the last segment of its submit path). */
import type { HandlerTable } from "../types.js";
import { userHandlers } from "./users.js";
import { apiKeyHandlers } from "./api-keys.js";
import { tagHandlers } from "./tags.js";
import { authenticatorHandlers } from "./authenticators.js";
import { walletHandlers } from "./wallets.js";
import { privateKeyHandlers } from "./private-keys.js";
import { signingHandlers } from "./signing.js";
import { oauth2Handlers } from "./oauth2.js";
import { subOrganizationHandlers } from "./sub-organizations.js";
import { exportImportHandlers } from "./export-import.js";
import { sessionHandlers } from "./sessions.js";
import { otpHandlers } from "./otp.js";
import { oauthHandlers } from "./oauth.js";
import { recoveryHandlers } from "./recovery.js";
import { policyHandlers } from "./policies.js";
import { organizationHandlers } from "./organization.js";
import { authProxyHandlers } from "./auth-proxy.js";

export const activityHandlers: HandlerTable = {
  ...userHandlers,
  ...apiKeyHandlers,
  ...tagHandlers,
  ...authenticatorHandlers,
  ...walletHandlers,
  ...privateKeyHandlers,
  ...signingHandlers,
  ...oauth2Handlers,
  ...subOrganizationHandlers,
  ...exportImportHandlers,
  ...sessionHandlers,
  ...otpHandlers,
  ...oauthHandlers,
  ...recoveryHandlers,
  ...policyHandlers,
  ...organizationHandlers,
  ...authProxyHandlers,
};
