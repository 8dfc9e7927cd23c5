/**
 * What each kind of operation's handler is handed: the vocabulary of define.ts,
 * types only, so the entries, the engine, the queries and the auth proxy can all name them
 * without importing one another's implementation.
 */
import type { Offload, Runtime } from "../runtime.js";
import type { Caller } from "../auth/caller.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { SigningKey } from "../../signing/index.js";

export type { Offload };

/** What the family that resolves `signWith` tells about the key besides the key itself (its wallet, account or private key), declared by that family. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SignerDetails {}

/** The key a `signWith` names (`rt.hooks.resolveSigner`), and what the policy engine may want to know about it. */
export type ResolvedSigner = SignerDetails & {
  key: SigningKey;
  /** Compressed (33 bytes) for ECDSA curves, raw 32 bytes for ed25519. */
  publicKey: Uint8Array;
  /** The address format `signWith` named, when it was an address. */
  addressFormat?: string;
};

/** What an activity handler sees: the runtime, the target organization and the caller, and what the engine resolved for the decision. */
export type ActivityContext = {
  rt: Runtime;
  now: number;
  org: OrganizationRow;
  caller: Caller;
  activityId: string;
  /**
   * The key a `signWith` names in `org`, as the decision resolved it (engine/frame.ts:
   * looked up once per activity); throws an InputError at `signWith` when nothing answers to it.
   */
  signer(signWith: string): ResolvedSigner;
  /** Hands CPU work to a worker when the server is busy (Offload). */
  offload: Offload;
};

/** What a query handler sees. */
export type QueryContext = { rt: Runtime; now: number; org: OrganizationRow; caller: Caller };

/** What one auth-proxy request works with: its runtime and organization, and what the auth proxy's family adds (its configuration). */
export interface ProxyContext {
  rt: Runtime;
  /** The request's instant (`requestInstant`, core/http/request-facts.ts): the times of every activity it forwards. */
  now: number;
  org: OrganizationRow;
  captchaToken?: string;
}
