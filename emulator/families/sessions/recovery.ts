/**
 * Email recovery: init_user_email_recovery (V2) mails a credential bundle for a fresh,
 * expiring recovery key; recover_user, stamped with that key, adds a passkey to the user
 * and retires the recovery key.
 */
import { permissionDenied } from "../../core/errors.js";
import { requireAuthEnabled } from "../organizations/index.js";
import { checkEmail, checkName, requireUser } from "../../core/vocabulary/lookups.js";
import { addAuthenticators } from "../users/index.js";
import { deliverBundle } from "./otp.js";
import { issueCredentialBundle } from "./sessions.js";
import { findUsersByContact } from "../../core/auth/contacts.js";
import { notFound } from "../../core/errors.js";
import { defineActivity } from "../../core/vocabulary/define.js";

export const RECOVERY_CREDENTIAL = "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256";

export const recoveryOperations = [
  defineActivity("init_user_email_recovery", {
    policy: { resource: "RECOVERY", action: "CREATE", source: "documented" },
    legacy: ["ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY"], // Dart 1.1.2 and its current source
    parentMayInitiate: true,
    run(ctx, p) {
      checkEmail(p.email, "parameters.email");
      // V2's contract requires the customization's appName; the first version makes the customization optional.
      const custom = p.emailCustomization ?? {};
      if (custom.appName !== undefined) checkName(custom.appName, "parameters.emailCustomization.appName");
      requireAuthEnabled(ctx.org, "emailRecovery");
      const user = findUsersByContact(ctx.rt, ctx.org.id, "OTP_TYPE_EMAIL", p.email)[0];
      if (!user) throw notFound(`no user found with email ${p.email} in organization ${ctx.org.id}`);
      const { credentialBundle } = issueCredentialBundle(ctx, {
        org: ctx.org,
        user,
        targetPublicKey: p.targetPublicKey,
        expirationSeconds: p.expirationSeconds,
        credentialType: RECOVERY_CREDENTIAL,
        name: `Recovery - ${ctx.now}`,
        invalidateExisting: true,
      });
      deliverBundle(ctx, p.email, custom, credentialBundle, "recovery", `${custom.appName ?? ctx.org.name} account recovery`);
      return { userId: user.id };
    },
  }),

  defineActivity("recover_user", {
    policy: { resource: "RECOVERY", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const { store } = ctx.rt;
      const user = requireUser(store, ctx.org.id, p.userId, "parameters.userId");
      const { credential } = ctx.caller;
      if (credential.type !== RECOVERY_CREDENTIAL || ctx.caller.user.id !== user.id)
        throw permissionDenied("recover_user must be stamped with the user's recovery credential from init_user_email_recovery");
      const authenticatorId = addAuthenticators(ctx, ctx.org.id, user.id, [p.authenticator], "parameters.authenticator");
      store.apiKeys.delete(credential.id);
      return { authenticatorId };
    },
  }),
];
