/** Users reached by an email address or phone number (OTP, email auth, recovery, logins). */
import type { Runtime } from "../runtime.js";
import type { UserRow } from "../store/users.js";

export const sameEmail = (a: string | null, b: string): boolean => a !== null && a.toLowerCase() === b.toLowerCase();
export const samePhone = (a: string | null, b: string): boolean => a !== null && a.replace(/[^\d+]/g, "") === b.replace(/[^\d+]/g, "");

/** Users of one organization whose email (OTP_TYPE_EMAIL) or phone (OTP_TYPE_SMS) is `contact`. */
export function findUsersByContact(rt: Runtime, orgId: string, otpType: string, contact: string): UserRow[] {
  const sms = otpType === "OTP_TYPE_SMS";
  return rt.store.users.list(orgId).filter((u) => (sms ? samePhone(u.phone, contact) : sameEmail(u.email, contact)));
}
