/**
 * `/v1/signup` and `/v1/signup_v2`: a sub-organization of the configuration's organization
 * with one root user (threshold 1) holding the given credentials, created by the proxy user
 * through create_sub_organization (V8). A verification token marks the contact verified; when
 * it is bound to a key, the client signature over the signup is required.
 * Defaults follow @turnkey/core's buildSignUpBody: `sub-org-<ms>` and the user's email or
 * phone, else `user-<ms>`. `userTag` is accepted and not used (its meaning is not published).
 */
import { internal } from "../../core/errors.js";
import { forward } from "./forward.js";
import type { ProxyContext } from "../../core/vocabulary/contexts.js";
import type { ProxyBody } from "../../core/vocabulary/define.js";

export async function signup(px: ProxyContext, b: ProxyBody<"signup" | "signup_v2">): Promise<{ organizationId: string; userId: string; wallet?: { walletId: string; addresses: string[] } }> {
  const now = px.now;
  const r = await forward(px, "create_sub_organization", {
    subOrganizationName: b.organizationName || `sub-org-${now}`,
    rootUsers: [
      {
        userName: b.userName || b.userEmail || b.userPhoneNumber || `user-${now}`,
        userEmail: b.userEmail || undefined,
        userPhoneNumber: b.userPhoneNumber || undefined,
        apiKeys: b.apiKeys,
        authenticators: b.authenticators,
        oauthProviders: b.oauthProviders,
      },
    ],
    rootQuorumThreshold: 1,
    wallet: b.wallet,
    verificationToken: b.verificationToken || undefined,
    clientSignature: b.clientSignature,
  });
  const userId = r.rootUserIds?.[0];
  if (!userId) throw internal(`auth proxy: create_sub_organization answered no root user id for ${r.subOrganizationId}`);
  return { organizationId: r.subOrganizationId, userId, ...(r.wallet ? { wallet: r.wallet } : {}) };
}
