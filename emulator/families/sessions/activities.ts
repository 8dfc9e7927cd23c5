/**
 * Sessions: stamp_login, create_read_write_session (V2; V1 names its user by email) and create_read_only_session. Login
 * keys, session JWTs and credential bundles are the domain's (sessions.ts).
 */
import { invalidArgument } from "../../core/errors.js";
import { issueCredentialBundle, issueLoginSession } from "./sessions.js";
import { requireOtpLoginEnabled } from "./otp.js";
import { requireUser } from "../../core/vocabulary/lookups.js";
import { userByContact } from "./otp.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { issueReadOnlySession } from "../../core/auth/read-only-session.js";

export const sessionOperations = [
  defineActivity("stamp_login", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented", params: [["session_profile_id", "sessionProfileId", ""]] },
    parentMayInitiate: true,
    servedInCallerOrg: true,
    run(ctx, p) {
      const { user, org, credential } = ctx.caller;
      const byVerificationToken = credential.kind === "attested" && credential.scheme === "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN";
      const token = byVerificationToken ? ctx.rt.store.verificationTokens.get(credential.id) : undefined;
      if (token) requireOtpLoginEnabled(org, token.verificationType);
      const session = issueLoginSession(ctx, org, user, p);
      if (byVerificationToken) ctx.rt.store.verificationTokens.markUsed(credential.id, ctx.now);
      return { session };
    },
  }),

  defineActivity("create_read_write_session", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented" },
    olderVersions: {
      ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION: {
        params: ({ email: _, ...p }) => p,
        // The session is for the target organization's user with that email (V2 names a user id, or the caller).
        run: (ctx, { email, ...p }, current) => current({ ...p, userId: userByContact(ctx, ctx.org, "OTP_TYPE_EMAIL", email).id }),
      },
    },
    run(ctx, p) {
      const user = p.userId ? requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId") : ctx.caller.user;
      if (user.orgId !== ctx.org.id) throw invalidArgument("userId is required when the caller is not a user of the target organization", "parameters.userId");
      const { apiKeyId, credentialBundle } = issueCredentialBundle(ctx, {
        org: ctx.org,
        user,
        targetPublicKey: p.targetPublicKey,
        expirationSeconds: p.expirationSeconds,
        credentialType: "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256",
        name: p.apiKeyName || `Read Write Session - ${ctx.now}`,
        invalidateExisting: p.invalidateExisting,
      });
      return { organizationId: ctx.org.id, organizationName: ctx.org.name, userId: user.id, username: user.name, apiKeyId, credentialBundle };
    },
  }),

  defineActivity("create_read_only_session", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented" },
    run(ctx) {
      // The session reads in X-Session without a stamp (core/auth/read-only-session.ts).
      const { user, org } = ctx.caller;
      const { session, sessionExpiry } = issueReadOnlySession(ctx.rt, ctx.now, org, user);
      return { organizationId: org.id, organizationName: org.name, userId: user.id, username: user.name, session, sessionExpiry: String(sessionExpiry) };
    },
  }),
];
