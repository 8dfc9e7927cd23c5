/**
 * Which rows of docs/fidelity.md (the ledger of UNCONFIRMED decisions) an exchange touches:
 * one rule per row, reading the operation, the activity type, the request and the answers
 * (recorded and replayed: an error message either side gives counts). A replayed exchange
 * that matches its recording confirms the rows it touches; one that differs names them on
 * its differences, so a drift report says which decision the live service contradicts.
 * Rows no exchange can show (choices about data the emulator makes up) have no rule.
 */

export type LedgerFacts = {
  /** `submit create_wallet`, `query whoami`, `proxy otp_init`. */
  operation: string;
  request: unknown;
  /** The request carried an X-Session header. */
  session: boolean;
  /** The recorded answer and the replayed one. */
  answers: { status: number; body: unknown }[];
};

type Rule = (f: LedgerFacts, x: Derived) => boolean;
type Derived = { op: string; type: string; messages: string[]; statuses: number[]; errorCodes: string[] };

const ops =
  (...names: string[]): Rule =>
  (_f, x) =>
    names.includes(x.op);
const opMatches =
  (re: RegExp): Rule =>
  (_f, x) =>
    re.test(x.op);
const types =
  (...names: string[]): Rule =>
  (_f, x) =>
    names.includes(x.type);
const said =
  (re: RegExp): Rule =>
  (_f, x) =>
    x.messages.some((m) => re.test(m));
const any =
  (...rules: Rule[]): Rule =>
  (f, x) =>
    rules.some((r) => r(f, x));
const sent =
  (re: RegExp): Rule =>
  (f) =>
    re.test(JSON.stringify(f.request ?? null));

/** Row id of docs/fidelity.md → when an exchange touches it. */
export const LEDGER_RULES: Readonly<Record<string, Rule>> = {
  "address-format-choices": (f, x) => /create_wallet|create_wallet_accounts|create_private_keys|create_sub_organization/.test(x.op) && sent(/ADDRESS_FORMAT_[A-Z0-9_]*(P2SH|P2WSH|TON)/)(f, x),
  "approval-expiry": ops("approve_activity"),
  "auth-feature-refusal": said(/\bfeature\b|FEATURE_NAME_/i),
  "auth-features-default": ops("init_otp", "init_otp_auth", "email_auth", "otp_init", "otp_init_v2"),
  "balances-private-key-address": ops("get_wallet_address_balances"),
  "contract-violation-messages": said(/^bad request body|required$|^invalid path format|^missing wallet params|must be set$/),
  "cross-org-activity": said(/organization mismatch/),
  "denial-recorded-failed": (f, x) => f.operation.startsWith("submit ") && x.statuses.includes(403) && x.messages.some((m) => /request not authorized|policy/i.test(m)),
  "earn-catalog": ops("list_earn_vaults", "list_earn_enabled_vaults"),
  "earn-org-scope": ops("earn_deploy_wrapper", "earn_set_wrapper_state", "claim_earn_fees"),
  "earn-policy-resource": opMatches(/^(earn_|claim_earn_fees$)/),
  "earn-request-status": opMatches(/^get_(earn_[a-z_]+|claim_earn_fees)_status$/),
  "earn-splitter": ops("earn_deploy_wrapper"),
  "enum-numbers-refused": sent(/"(curve|pathFormat|addressFormat|curveType|effect|otpType|type)":\s*\d/),
  "error-code-per-message": (_f, x) => x.errorCodes.length > 0,
  "expiring-key-limit": (f, x) => /create_api_keys|create_read_write_session|otp_login|oauth_login|stamp_login/.test(x.op) && sent(/"expirationSeconds"/)(f, x),
  "first-access-type": types("ACTIVITY_TYPE_CREATE_USERS"),
  "first-passkey-shape": types("ACTIVITY_TYPE_CREATE_AUTHENTICATORS"),
  "import-own-user": any(said(/import requests must target your own user/), (f, x) => /^(init_)?import_(wallet|private_key)$/.test(x.op) && x.statuses.includes(403)),
  "ip-allowlist-refusal": said(/source IP address/),
  "ip-allowlist-remove-absent": ops("remove_ip_allowlist"),
  "keys-before-curve-type": types("ACTIVITY_TYPE_CREATE_API_KEYS", "ACTIVITY_TYPE_CREATE_USERS", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2"),
  "older-result-member": types("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2"),
  "onramp-policy-resource": opMatches(/fiat_on_ramp/),
  "otp-auth-app-name": types("ACTIVITY_TYPE_INIT_OTP_AUTH", "ACTIVITY_TYPE_INIT_OTP_AUTH_V2"),
  "otp-rate-limit": any(said(/too many OTP requests/), (_f, x) => /otp_init|init_otp/.test(x.op) && x.statuses.includes(429)),
  "policy-selectors": types("ACTIVITY_TYPE_CREATE_POLICY", "ACTIVITY_TYPE_CREATE_POLICY_V2"),
  "proto-json-integers": sent(/":\s*-?\d/),
  "proto-json-mapping": (f) => hasProtoNames(f.request),
  "proto-json-refusals": said(/duplicate field|expected string, received/),
  "read-only-session": any((f) => f.session, ops("create_read_only_session")),
  "sandbox-otp": sent(/"user@example\.com"|"\+19999999999"/i),
  "secrets-policy-resource": ops("import_secrets", "export_secrets", "init_import_secrets"),
  "suborg-v1-root-user": types("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION"),
  "swap-default-slippage": ops("create_swap_quote"),
  "swap-execute-refusals": ops("execute_swap"),
  "swap-fee-payout": ops("claim_swap_fees"),
  "swap-fee-settlement": ops("execute_swap"),
  "swap-generated-receiver": ops("upsert_swap_config"),
  "swap-parent-only": ops("upsert_swap_config", "claim_swap_fees"),
  "swap-policy-subjects": ops("create_swap_quote", "execute_swap"),
  "swap-provider": ops("create_swap_quote", "get_swap_status"),
  "swap-quote-ttl": ops("execute_swap"),
  "tvc-choices": opMatches(/tvc/),
  "tvc-operator-keys": ops("create_tvc_operator", "list_tvc_operators"),
  "tvc-quorum-share-format": ops("create_tvc_quorum_key", "post_tvc_quorum_key_share"),
  "type-refusal-list": said(/type: invalid value, expected one of/),
  "undocumented-type-alias": types("ACTIVITY_TYPE_ETH_UNDELEGATE7702"),
  "velocity-policy-semantics": (f, x) => x.op === "create_policy" && sent(/controls\./)(f, x),
  "velocity-validation": ops("create_velocity_control"),
  "velocity-what-counts": opMatches(/velocity_control/),
  "velocity-windows-groups": ops("create_velocity_control", "get_velocity_control"),
  "verified-suborgs-unfiltered": (f, x) => x.op === "list_verified_suborgs" && !sent(/"filterValue"/)(f, x),
};

/** A body that names a field by its proto (snake_case) name, or sends null: read by the JSON mapping. */
function hasProtoNames(v: unknown): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(hasProtoNames);
  if (v && typeof v === "object") return Object.entries(v).some(([k, x]) => /^[a-z0-9]+(_[a-z0-9]+)+$/.test(k) || hasProtoNames(x));
  return false;
}

function derive(f: LedgerFacts): Derived {
  const body = (f.request ?? {}) as { type?: unknown };
  const errors = f.answers.filter((a) => a.status !== 200).map((a) => (a.body ?? {}) as { message?: unknown; details?: { turnkeyErrorCode?: unknown }[] });
  return {
    op: f.operation.replace(/^(submit|query|proxy) /, ""),
    type: typeof body.type === "string" ? body.type : "",
    messages: errors.map((e) => (typeof e.message === "string" ? e.message : "")).filter(Boolean),
    statuses: f.answers.map((a) => a.status),
    errorCodes: errors.flatMap((e) => (Array.isArray(e.details) ? e.details.map((d) => d?.turnkeyErrorCode).filter((c): c is string => typeof c === "string") : [])),
  };
}

/** The ledger rows an exchange touches, sorted. */
export function rowsTouched(f: LedgerFacts): string[] {
  const x = derive(f);
  return Object.entries(LEDGER_RULES)
    .filter(([, rule]) => rule(f, x))
    .map(([id]) => id)
    .sort();
}
