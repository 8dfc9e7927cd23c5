/**
 * Users: the one place a user row is written, whoever creates it (create_users, sub-org
 * creation, signup through the auth proxy, the proxy user, fixtures), so that every user
 * gets the same defaults.
 */
import { newId } from "../ids.js";
import type { Store } from "../store/index.js";

export type NewUser = {
  id?: string;
  orgId: string;
  name: string;
  email?: string | null;
  phone?: string | null;
  /** A contact is verified only when a verification token (or a fixture) vouches for it. */
  emailVerified?: boolean;
  phoneVerified?: boolean;
};

/** Writes a user; returns its id. */
export function insertUser(store: Store, u: NewUser, now: number): string {
  const id = u.id ?? newId();
  store.users.insert({
    id,
    orgId: u.orgId,
    name: u.name,
    email: u.email ?? null,
    phone: u.phone ?? null,
    emailVerified: u.emailVerified ?? false,
    phoneVerified: u.phoneVerified ?? false,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}
