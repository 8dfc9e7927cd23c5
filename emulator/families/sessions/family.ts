/**
 * The sessions family: logins and sessions (stamp_login, read-write and read-only sessions),
 * session profiles and the scope they bound a session to, one-time codes (OTP, email auth) and
 * email recovery.
 */
import { defineFamily } from "../../core/family.js";
import { sessionOperations } from "../../activities/handlers/sessions.js";
import { sessionProfileOperations } from "../../activities/handlers/session-profiles.js";
import { otpOperations } from "../../activities/handlers/otp.js";
import { recoveryOperations } from "../../activities/handlers/recovery.js";
import { sessionProfileQueryOperations } from "../../queries/session-profiles.js";
import { sessionScopeDenial } from "../../domain/sessions.js";
import { SessionProfiles } from "../../store/session-profiles.js";
import { Otps } from "../../store/otps.js";

export const sessionsFamily = defineFamily({
  name: "sessions",
  operations: [...sessionOperations, ...sessionProfileOperations, ...otpOperations, ...recoveryOperations, ...sessionProfileQueryOperations],
  repositories: (db) => ({ sessionProfiles: new SessionProfiles(db), otps: new Otps(db) }),
  hooks: {
    proposalDenial: sessionScopeDenial, // a session made under a profile proposes only what its scope allows
  },
});
