/** What the OAuth family offers the other families. */
import type { Runtime } from "../../core/runtime.js";
import type { Oauth2CredentialRow } from "./oauth2-repository.js";

/** The organization's OAuth 2.0 credential for this provider and client id (the auth proxy's oauth2_authenticate names it so). */
export function oauth2CredentialFor(rt: Pick<Runtime, "store">, orgId: string, provider: string, clientId: string): Oauth2CredentialRow | undefined {
  return rt.store.oauth2.list(orgId).find((c) => c.provider === provider && c.clientId === clientId);
}
