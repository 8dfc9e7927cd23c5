/**
 * Readings shared by older activity versions (the entries' `olderVersions`, docs/activity-versions.md):
 * the API key and passkey shapes of the first versions, as the current intents have them, and
 * the checks of what those shapes say beyond the current ones.
 */
import { invalidArgument, TurnkeyError } from "../errors.js";
import type { IntentOf } from "./define.js";

type ApiKeyV1 = IntentOf<"ACTIVITY_TYPE_CREATE_API_KEYS">["apiKeys"][number];
type AuthenticatorV1 = IntentOf<"ACTIVITY_TYPE_CREATE_AUTHENTICATORS">["authenticators"][number];

/**
 * API keys of the versions before `curveType` (create_api_keys V1, create_users V1-V2,
 * create_sub_organization V2-V5, create_api_only_users) are P-256 keys, the only kind of their
 * time: "you generate a P-256 key pair" (tkhq/docs docs/user-management/Introduction.md:34,
 * 2023-10).
 */
export const asP256Keys = (keys: readonly ApiKeyV1[]) => keys.map((k) => ({ ...k, curveType: "API_KEY_CURVE_P256" as const }));

/**
 * A passkey in the first shape (the browser's PublicKeyCredential as JSON: `id`, `rawId`,
 * `response`) as the current one: the credential id, client data, attestation object and transports.
 */
export function currentAuthenticator(a: AuthenticatorV1) {
  const { id, response } = a.attestation;
  return {
    authenticatorName: a.authenticatorName,
    challenge: a.challenge,
    attestation: { credentialId: id, clientDataJson: response.clientDataJson, attestationObject: response.attestationObject, transports: response.transports ?? [] },
  };
}

const bytes = (s: string) => Buffer.from(s, "base64url").toString("hex");

/**
 * What the first passkey shape says beyond the current one: `rawId` must be the bytes `id`
 * names and, when `userId` is given, each passkey's own `userId` must be that user. The client
 * outputs it carries (`authenticatorAttachment`, `clientExtensionResults`) are kept in the intent
 * only: the attestation object holds what is verified.
 */
export function checkFirstAuthenticators(list: readonly AuthenticatorV1[], field: string, userId?: string): void {
  list.forEach((a, i) => {
    if (bytes(a.attestation.rawId) !== bytes(a.attestation.id)) throw invalidArgument("attestation.rawId must encode the same credential id as attestation.id", `${field}[${i}].attestation.rawId`);
    if (userId !== undefined && a.userId !== userId) throw invalidArgument(`authenticator is for user ${a.userId}, but the request adds authenticators to user ${userId}`, `${field}[${i}].userId`);
  });
}

/**
 * Runs `fn` (the current handler on an older intent read as current parameters) naming, in the
 * errors it answers, the older intent's fields for the current ones they were read as:
 * `[current field or prefix, older field]`, e.g. `["parameters.signWith", "parameters.privateKeyId"]`.
 */
export function inOlderFields<T>(renames: readonly (readonly [current: string, older: string])[], fn: () => T): T {
  const rename = (field: string) => {
    const hit = renames.find(([cur]) => field === cur || field.startsWith(`${cur}.`) || field.startsWith(`${cur}[`));
    return hit ? hit[1] + field.slice(hit[0].length) : field;
  };
  const map = (e: unknown): never => {
    if (!(e instanceof TurnkeyError)) throw e;
    const details = e.details.map((d) => {
      const violations = (d as { fieldViolations?: { field: string; description: string }[] }).fieldViolations;
      return violations ? { ...d, fieldViolations: violations.map((v) => ({ ...v, field: rename(v.field) })) } : d;
    });
    throw new TurnkeyError(e.code, e.message, details);
  };
  try {
    const r = fn();
    return (r instanceof Promise ? r.catch(map) : r) as T;
  } catch (e) {
    return map(e);
  }
}
