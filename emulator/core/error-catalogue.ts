/**
 * The documented error catalogue: every message Turnkey's errors page lists (tkhq/docs
 * `api-reference/overview/errors.mdx`, the "Detailed error messages" table), with the gRPC
 * code and HTTP status the page gives it and the `turnkeyErrorCode` the emulator sends with it.
 * A documentation change is one edit here. Raise sites name an entry (`documentedError` in
 * errors.ts, or `documentedMessage` for library code); the wire message is the documented one,
 * optionally followed by `: <field and detail>`.
 *
 * `source` is the line of the errors table; `codeSource` the line the turnkeyErrorCode comes
 * from (the page pairs no code with a message: the code is the category whose description in
 * the "Available TurnkeyErrorCodes" table fits, or the page's own example). `emulated` is true,
 * or says why the emulator never meets the cause. docs/errors.md explains the choices.
 *
 * Pure data (no imports), so that library code and errors.ts can both read it.
 */

/** gRPC codes as the page names them (grpc.io numbering). */
const InvalidArgument = 3;
const NotFound = 5;
const PermissionDenied = 7;
const ResourceExhausted = 8;
const Internal = 13;
const Unauthenticated = 16;

export type CatalogueEntry = {
  /** The message, exactly as the errors table writes it. */
  readonly message: string;
  readonly grpcCode: number;
  readonly httpStatus: number;
  readonly turnkeyErrorCode: string;
  /** `errors.mdx:NN`, the table row. */
  readonly source: string;
  /** Where the turnkeyErrorCode comes from: `errors.mdx:NN` (a code table row or the page's example). */
  readonly codeSource: string;
  /** Text the service writes before the message on the wire, when known from another source. */
  readonly wirePrefix?: string;
  /** What separates the message from a detail; `: ` unless the service is known to write otherwise. */
  readonly detailSeparator?: string;
  /** true, or why the emulator never meets this cause. */
  readonly emulated: true | string;
};

const entry = (grpcCode: number, httpStatus: number, message: string, line: number, turnkeyErrorCode: string, codeLine: number, emulated: true | string = true): CatalogueEntry => ({
  message,
  grpcCode,
  httpStatus,
  turnkeyErrorCode,
  source: `errors.mdx:${line}`,
  codeSource: `errors.mdx:${codeLine}`,
  emulated,
});

/** An InvalidArgument / 400 row; most take REQUEST_INVALID ("invalid or missing required parameters", errors.mdx:57). */
const invalid = (message: string, line: number, turnkeyErrorCode = "REQUEST_INVALID", codeLine = 57, emulated: true | string = true): CatalogueEntry =>
  entry(InvalidArgument, 400, message, line, turnkeyErrorCode, codeLine, emulated);

const unauthenticated = (message: string, line: number, turnkeyErrorCode: string, codeLine: number, emulated: true | string = true): CatalogueEntry =>
  entry(Unauthenticated, 401, message, line, turnkeyErrorCode, codeLine, emulated);

const SAME_CAUSE = (other: string) => `same cause as "${other}", which the emulator answers (docs/errors.md)`;
const QUOTA = "the emulator keeps no signing quota and no per-organization activity ban (its optional --rate-limit answers the request rate limit's own message)";

export const DOCUMENTED_ERRORS = {
  MALFORMED_ORGANIZATION_ID: invalid("malformed organization ID provided", 85, "INVALID_ORGANIZATION_ID", 63),
  BAD_REQUEST_BODY: invalid("bad request body", 86),
  FAILED_TO_LOAD_ORGANIZATIONS: invalid("failed to load organizations", 87, "ORGANIZATION_NOT_FOUND", 46, SAME_CAUSE("no organization found with the given ID")),
  POLICY_LABEL_NOT_UNIQUE: invalid("policy label must be unique", 88),
  INVALID_POLICY_CONSENSUS: invalid("invalid policy consensus", 89),
  INVALID_POLICY_CONDITION: invalid("invalid policy condition", 90),
  QUORUM_THRESHOLD_NOT_POSITIVE: invalid("quorum threshold must be non-zero integer", 91),
  QUORUM_USERS_MISSING: invalid("quorum users missing", 92),
  INVALID_API_KEY_EXPIRATION: invalid("invalid api key expiration", 93),
  MISSING_ATTESTATION: invalid("missing parameter: user authenticator attestation", 94),
  INVALID_ATTESTATION: invalid("invalid authenticator attestation", 95),
  MISSING_ATTESTATION_AUTH_DATA: invalid("missing parameter: user authenticator attestation auth data", 96),
  MISSING_WALLET_PARAMS: invalid("missing wallet params", 97),
  INVALID_PATH_FORMAT: invalid("invalid path format", 98),
  INVALID_PATH: invalid("invalid path", 99),
  INVALID_ADDRESS_FORMAT: invalid("invalid address format", 100),
  INVALID_CURVE: invalid("invalid curve", 101),
  CURVE_REQUIRED: invalid("curve required", 102),
  INVALID_PAYLOAD_ENCODING: invalid("invalid payload encoding", 103),
  INVALID_HASH_FUNCTION: invalid("invalid hash function", 104),
  INVALID_MAGIC_LINK_TEMPLATE: invalid("invalid magic link template", 105, "REQUEST_INVALID", 57, "the docs do not say what makes a template invalid; the emulator fills any template's %s"),
  FAILED_TO_GET_EMAIL_TEMPLATE: invalid("failed to get email template contents", 106, "REQUEST_INVALID", 57, "a failure of the service's template store; the emulator renders its own mail"),
  FAILED_TO_UNMARSHAL_TEMPLATE_VARIABLES: invalid("failed to unmarshal template variables", 107, "REQUEST_INVALID", 57, "the emulator does not render template variables"),
  ORGANIZATION_MISMATCH: invalid("organization mismatch", 108, "ORGANIZATION_MISMATCH", 27),
  INVALID_WALLET_ACCOUNT_UUID: invalid("invalid wallet account UUID", 109),
  WALLET_ACCOUNT_NOT_IN_ORGANIZATION: invalid("wallet account not part of your organization", 110),
  WALLET_ACCOUNT_NOT_EXPORTED: invalid("wallet account has not been exported", 111, "WALLET_ACCOUNT_NOT_EXPORTED", 69),
  INVALID_OIDC_TOKEN: invalid("invalid OIDC token", 112, "INVALID_OIDC_TOKEN", 62),
  INVALID_EMAIL_ADDRESS: invalid("invalid email address", 113, "INVALID_EMAIL", 72),
  COULD_NOT_REACH_EMAIL: invalid("could not reach email", 114, "INVALID_FQDN", 73, "needs a DNS (MX) lookup; the emulator runs offline"),
  AUTH_CODE_NOT_SET: invalid("auth_code must be set", 115),
  CODE_VERIFIER_NOT_SET: invalid("code_verifier must be set", 116),
  OAUTH2_CREDENTIAL_ID_NOT_SET: invalid("oauth2_credential_id must be set", 117),
  REDIRECT_URI_NOT_SET: invalid("redirect_uri must be set", 118),
  CLIENT_ID_NOT_SET: invalid("client_id must be set", 119),
  NO_VALID_SIGNATURE: unauthenticated("no valid authentication signature found for request", 120, "SIGNATURE_MISSING", 52, SAME_CAUSE("cannot authenticate public API activity request without a stamp")),
  PUBLIC_KEY_NOT_IN_ORGANIZATION: unauthenticated("could not find public key in organization", 121, "PUBLIC_KEY_NOT_FOUND", 50, "the emulator always looks in the parent too and answers the longer message, which the SDKs match"),
  PARENT_KEY_LOOKUP_FAILED: unauthenticated("failed while looking up public key in parent organization", 122, "PUBLIC_KEY_NOT_FOUND", 50, "a failure of the service's own lookup"),
  PUBLIC_KEY_NOT_FOUND: unauthenticated("could not find public key in organization or its parent organization", 123, "PUBLIC_KEY_NOT_FOUND", 50),
  WEBAUTHN_SIGNATURE_INVALID: unauthenticated("could not verify WebAuthN signature", 124, "SIGNATURE_INVALID", 53),
  CREDENTIAL_ID_NOT_FOUND: unauthenticated("credential ID could not be found in organization or its parent organization", 125, "CREDENTIAL_NOT_FOUND", 54),
  PUBLIC_KEY_NOT_TRANSLATED: unauthenticated("public key could not be found in organization or its parent organization", 126, "PUBLIC_KEY_NOT_FOUND", 50, SAME_CAUSE("could not find public key in organization or its parent organization")),
  CREDENTIAL_ID_CONFLICT: unauthenticated("more than one suborg associated with a credential ID", 127, "CREDENTIAL_CONFLICT", 55),
  PUBLIC_KEY_CONFLICT: unauthenticated("more than one suborg associated with a public key", 128, "CREDENTIAL_CONFLICT", 55),
  API_KEY_SIGNATURE_INVALID: unauthenticated("could not verify api key signature", 129, "SIGNATURE_INVALID", 53),
  EXPIRED_API_KEY: {
    ...unauthenticated("expired api key", 130, "API_KEY_EXPIRED", 56),
    // @turnkey/core (utils, sessionExpiredErrors.apiKeyExpired) recognises an expired session by "Unauthenticated desc = expired api key publicKey".
    wirePrefix: "rpc error: code = Unauthenticated desc = ",
    detailSeparator: " ",
  },
  MALFORMED_ACTIVITY_STAMP: unauthenticated("malformed activity stamp", 131, "SIGNATURE_MISSING", 52),
  COULD_NOT_EXTRACT_WEBAUTHN_STAMP: unauthenticated("could not extract webauthn stamp", 132, "SIGNATURE_MISSING", 52, SAME_CAUSE("cannot authenticate public API activity request without a stamp")),
  COULD_NOT_EXTRACT_API_KEY_STAMP: unauthenticated("could not extract api key stamp", 133, "SIGNATURE_MISSING", 52, SAME_CAUSE("cannot authenticate public API activity request without a stamp")),
  NO_STAMP: unauthenticated("cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)", 134, "SIGNATURE_MISSING", 52),
  REQUEST_NOT_AUTHORIZED: entry(PermissionDenied, 403, "request not authorized", 135, "REQUEST_NOT_AUTHORIZED", 49),
  API_OPERATIONS_DISABLED: entry(PermissionDenied, 403, "api operations disabled", 136, "API_OPERATIONS_DISABLED", 47, "Turnkey switching the API off globally; nothing a caller can cause"),
  AUTHENTICATION_FAILED: entry(PermissionDenied, 403, "authentication failed", 137, "UNAUTHENTICATED", 59, "its cause (a stamp that authenticates no one) is answered by the 401 entries above"),
  WEBAUTHN_AUTHENTICATOR_NOT_IN_ORGANIZATION: entry(NotFound, 404, "webauthn authenticator not found in organization", 138, "CREDENTIAL_NOT_FOUND", 54, SAME_CAUSE("credential ID could not be found in organization or its parent organization")),
  WEBAUTHN_AUTHENTICATOR_NOT_IN_PARENT: entry(NotFound, 404, "webauthn authenticator not found in organization or parent organization", 139, "CREDENTIAL_NOT_FOUND", 54, SAME_CAUSE("credential ID could not be found in organization or its parent organization")),
  ORGANIZATION_NOT_FOUND: entry(NotFound, 404, "no organization found with the given ID", 140, "ORGANIZATION_NOT_FOUND", 46),
  NO_ACTIVITY_FOR_FINGERPRINT: entry(NotFound, 404, "No activity found with fingerprint. Consensus activities must target an existing activity by fingerprint", 141, "UNSPECIFIED", 44),
  MAX_AUTHENTICATORS: entry(ResourceExhausted, 429, "user has exceeded maximum authenticators", 142, "RATE_LIMIT_EXCEEDED", 51),
  MAX_LONG_LIVED_API_KEYS: entry(ResourceExhausted, 429, "user has exceeded maximum long-lived api keys", 143, "RATE_LIMIT_EXCEEDED", 51),
  MAX_SHORT_LIVED_API_KEYS: entry(ResourceExhausted, 429, "user has exceeded maximum short-lived api keys", 144, "RATE_LIMIT_EXCEEDED", 51, "at the limit the emulator deletes an expired (else the oldest) expiring key, as the resource-limits page says (docs/limits.md)"),
  ORGANIZATION_OVER_QUOTA: entry(ResourceExhausted, 429, "this organization cannot execute activities because it is over its allotted quota. Please reach out to the Turnkey team (help@turnkey.com) for more information.", 145, "SIGNING_QUOTA_EXCEEDED", 48, QUOTA),
  PARENT_OVER_QUOTA: entry(ResourceExhausted, 429, "this sub-organization cannot execute activities because its parent is over its allotted quota. Please reach out to the Turnkey team (help@turnkey.com) for more information.", 146, "SIGNING_QUOTA_EXCEEDED", 48, QUOTA),
  ORGANIZATION_RATE_LIMITED: entry(ResourceExhausted, 429, "this organization cannot execute activities because it has been rate limited. Please reach out to the Turnkey team (help@turnkey.com) for more information.", 147, "RATE_LIMIT_EXCEEDED", 51, QUOTA),
  PARENT_RATE_LIMITED: entry(ResourceExhausted, 429, "this sub-organization cannot execute activities because its parent has been rate limited. Please reach out to the Turnkey team (help@turnkey.com) for more information.", 148, "RATE_LIMIT_EXCEEDED", 51, QUOTA),
  INTERNAL_SERVER_ERROR: entry(Internal, 500, "internal server error", 149, "INTERNAL", 45),
} as const satisfies Record<string, CatalogueEntry>;

export type DocumentedErrorKey = keyof typeof DOCUMENTED_ERRORS;

/** The wire message of an entry: the documented message, then `: detail` when there is one. */
export function documentedMessage(key: DocumentedErrorKey, detail?: string): string {
  const e: CatalogueEntry = DOCUMENTED_ERRORS[key];
  return `${e.wirePrefix ?? ""}${e.message}${detail ? `${e.detailSeparator ?? ": "}${detail}` : ""}`;
}
