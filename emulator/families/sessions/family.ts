/**
 * The sessions family: logins and sessions (stamp_login, read-write and read-only sessions),
 * session profiles and the scope they bound a session to, one-time codes (OTP, email auth) and
 * email recovery.
 */
import { defineFamily } from "../../core/family.js";
import { sessionOperations } from "./activities.js";
import { sessionProfileOperations } from "./profile-activities.js";
import { otpOperations } from "./otp-activities.js";
import { recoveryOperations } from "./recovery.js";
import { sessionProfileQueryOperations } from "./profile-queries.js";
import { sessionScopeDenial } from "./sessions.js";
import { SessionProfiles } from "./profiles-repository.js";
import { Otps } from "./otps-repository.js";

export const sessionsFamily = defineFamily({
  name: "sessions",
  operations: [...sessionOperations, ...sessionProfileOperations, ...otpOperations, ...recoveryOperations, ...sessionProfileQueryOperations],
  repositories: (db) => ({ sessionProfiles: new SessionProfiles(db), otps: new Otps(db) }),
  hooks: {
    proposalDenial: sessionScopeDenial, // a session made under a profile proposes only what its scope allows
  },
});
