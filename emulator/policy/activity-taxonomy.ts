/**
 * Data: what the policy language exposes about each activity type as
 * `activity.resource`, `activity.action` and `activity.params`.
 *
 * Rows marked "documented" follow the published resource/action table; the others are
 * inferred from the type's name (UNCONFIRMED). Types absent from RESOURCE_ACTION have no
 * resource/action: a policy reading them gets a MissingField evaluation error.
 * Keys omit the `ACTIVITY_TYPE_` prefix.
 */

export type ActivityResource =
  | "AUTH"
  | "AUTH_PROXY"
  | "CONFIG"
  | "CREDENTIAL"
  | "FIAT_TRANSACTION"
  | "INVITATION"
  | "MFA_POLICY"
  | "ON_RAMP_CREDENTIALS"
  | "ORGANIZATION"
  | "OTP"
  | "PAYMENT_METHOD"
  | "POLICY"
  | "PRIVATE_KEY"
  | "RECOVERY"
  | "SECRET"
  | "SESSION_PROFILE"
  | "SMART_CONTRACT_INTERFACE"
  | "SPONSORSHIP"
  | "SUBSCRIPTION"
  | "TVC_APP"
  | "TVC_DEPLOYMENT"
  | "TVC_OPERATOR"
  | "TVC_QUORUM_KEY"
  | "USER"
  | "VELOCITY_CONTROL"
  | "WALLET"
  | "WEBHOOK_ENDPOINT";

export type ActivityAction = "CREATE" | "UPDATE" | "DELETE" | "SIGN" | "EXPORT" | "IMPORT" | "VERIFY" | "ENCRYPT";

type Row = readonly [ActivityResource, ActivityAction, readonly string[]];

const ROWS: readonly Row[] = [
  // documented
  ["ORGANIZATION", "CREATE", ["CREATE_SUB_ORGANIZATION", "CREATE_SUB_ORGANIZATION_V2", "CREATE_SUB_ORGANIZATION_V3", "CREATE_SUB_ORGANIZATION_V4", "CREATE_SUB_ORGANIZATION_V5", "CREATE_SUB_ORGANIZATION_V6", "CREATE_SUB_ORGANIZATION_V7", "CREATE_SUB_ORGANIZATION_V8"]],
  ["ORGANIZATION", "DELETE", ["DELETE_ORGANIZATION", "DELETE_SUB_ORGANIZATION"]],
  ["POLICY", "CREATE", ["CREATE_POLICY", "CREATE_POLICY_V2", "CREATE_POLICY_V3", "CREATE_POLICIES"]],
  ["POLICY", "UPDATE", ["UPDATE_POLICY", "UPDATE_POLICY_V2"]],
  ["POLICY", "DELETE", ["DELETE_POLICY", "DELETE_POLICIES"]],
  ["WALLET", "CREATE", ["CREATE_WALLET", "CREATE_WALLET_ACCOUNTS"]],
  ["WALLET", "EXPORT", ["EXPORT_WALLET", "EXPORT_WALLET_ACCOUNT"]],
  ["WALLET", "IMPORT", ["INIT_IMPORT_WALLET", "IMPORT_WALLET"]],
  ["WALLET", "DELETE", ["DELETE_WALLETS", "DELETE_WALLET_ACCOUNTS"]],
  ["WALLET", "UPDATE", ["UPDATE_WALLET"]],
  ["PRIVATE_KEY", "SIGN", ["SIGN_RAW_PAYLOAD", "SIGN_RAW_PAYLOAD_V2", "SIGN_RAW_PAYLOADS", "SIGN_TRANSACTION", "SIGN_TRANSACTION_V2", "ETH_SEND_TRANSACTION", "SOL_SEND_TRANSACTION"]],
  ["PRIVATE_KEY", "CREATE", ["CREATE_PRIVATE_KEYS", "CREATE_PRIVATE_KEYS_V2", "CREATE_PRIVATE_KEY_TAG"]],
  ["PRIVATE_KEY", "UPDATE", ["UPDATE_PRIVATE_KEY_TAG"]],
  ["PRIVATE_KEY", "DELETE", ["DELETE_PRIVATE_KEY_TAGS", "DELETE_PRIVATE_KEYS"]],
  ["PRIVATE_KEY", "EXPORT", ["EXPORT_PRIVATE_KEY"]],
  ["PRIVATE_KEY", "IMPORT", ["INIT_IMPORT_PRIVATE_KEY", "IMPORT_PRIVATE_KEY"]],
  ["USER", "CREATE", ["CREATE_USERS", "CREATE_USERS_V2", "CREATE_USERS_V3", "CREATE_USERS_V4", "CREATE_USER_TAG", "CREATE_API_ONLY_USERS"]],
  ["USER", "UPDATE", ["UPDATE_USER", "UPDATE_USER_NAME", "UPDATE_USER_EMAIL", "UPDATE_USER_PHONE_NUMBER", "UPDATE_USER_TAG"]],
  ["USER", "DELETE", ["DELETE_USERS", "DELETE_USER_TAGS"]],
  ["CREDENTIAL", "CREATE", ["CREATE_API_KEYS", "CREATE_API_KEYS_V2", "CREATE_AUTHENTICATORS", "CREATE_AUTHENTICATORS_V2", "CREATE_OAUTH_PROVIDERS", "CREATE_OAUTH_PROVIDERS_V2"]],
  ["CREDENTIAL", "DELETE", ["DELETE_API_KEYS", "DELETE_AUTHENTICATORS", "DELETE_OAUTH_PROVIDERS"]],
  ["AUTH", "CREATE", ["EMAIL_AUTH", "EMAIL_AUTH_V2", "EMAIL_AUTH_V3", "INIT_OTP_AUTH", "INIT_OTP_AUTH_V2", "INIT_OTP_AUTH_V3", "OTP_AUTH", "OAUTH", "OAUTH_LOGIN", "OTP_LOGIN", "OTP_LOGIN_V2", "STAMP_LOGIN", "CREATE_READ_ONLY_SESSION", "CREATE_READ_WRITE_SESSION", "CREATE_READ_WRITE_SESSION_V2", "CREATE_OAUTH2_CREDENTIAL", "OAUTH2_AUTHENTICATE"]],
  ["AUTH", "DELETE", ["DELETE_OAUTH2_CREDENTIAL"]],
  ["AUTH", "UPDATE", ["UPDATE_OAUTH2_CREDENTIAL"]],
  ["OTP", "CREATE", ["INIT_OTP", "INIT_OTP_V2", "INIT_OTP_V3"]],
  ["OTP", "VERIFY", ["VERIFY_OTP", "VERIFY_OTP_V2"]],
  ["AUTH_PROXY", "CREATE", ["ENABLE_AUTH_PROXY"]],
  ["AUTH_PROXY", "DELETE", ["DISABLE_AUTH_PROXY"]],
  ["AUTH_PROXY", "UPDATE", ["UPDATE_AUTH_PROXY_CONFIG"]],
  ["WEBHOOK_ENDPOINT", "CREATE", ["CREATE_WEBHOOK_ENDPOINT"]],
  ["WEBHOOK_ENDPOINT", "UPDATE", ["UPDATE_WEBHOOK_ENDPOINT"]],
  ["WEBHOOK_ENDPOINT", "DELETE", ["DELETE_WEBHOOK_ENDPOINT"]],
  ["CONFIG", "UPDATE", ["UPDATE_ALLOWED_ORIGINS"]],
  ["RECOVERY", "CREATE", ["INIT_USER_EMAIL_RECOVERY", "INIT_USER_EMAIL_RECOVERY_V2"]],
  // inferred from names (UNCONFIRMED)
  ["ORGANIZATION", "CREATE", ["CREATE_ORGANIZATION", "CREATE_ORGANIZATION_V2"]],
  ["ORGANIZATION", "UPDATE", ["UPDATE_ORGANIZATION_NAME", "UPDATE_ROOT_QUORUM", "SET_ORGANIZATION_FEATURE", "REMOVE_ORGANIZATION_FEATURE"]],
  ["CONFIG", "UPDATE", ["SET_IP_ALLOWLIST"]],
  ["CONFIG", "DELETE", ["REMOVE_IP_ALLOWLIST"]],
  ["WALLET", "UPDATE", ["UPDATE_WALLET_ACCOUNT_NAME"]],
  ["PRIVATE_KEY", "SIGN", ["ETH_SEND_TRANSACTION_V2", "SOL_SEND_TRANSACTION_V2", "ETH_SEND_RAW_TRANSACTION", "ETH_UNDELEGATE_7702", "SPARK_SIGN_FROST", "SPARK_PREPARE_TRANSFER", "SPARK_CLAIM_TRANSFER", "SPARK_PREPARE_LIGHTNING_RECEIVE"]],
  ["PRIVATE_KEY", "UPDATE", ["DISABLE_PRIVATE_KEY"]],
  ["RECOVERY", "CREATE", ["RECOVER_USER"]],
  ["INVITATION", "CREATE", ["CREATE_INVITATIONS"]],
  ["INVITATION", "UPDATE", ["ACCEPT_INVITATION", "ACCEPT_INVITATION_V2"]],
  ["INVITATION", "DELETE", ["DELETE_INVITATION"]],
  ["PAYMENT_METHOD", "CREATE", ["SET_PAYMENT_METHOD", "SET_PAYMENT_METHOD_V2"]],
  ["PAYMENT_METHOD", "DELETE", ["DELETE_PAYMENT_METHOD"]],
  ["SUBSCRIPTION", "UPDATE", ["ACTIVATE_BILLING_TIER"]],
  ["SMART_CONTRACT_INTERFACE", "CREATE", ["CREATE_SMART_CONTRACT_INTERFACE"]],
  ["SMART_CONTRACT_INTERFACE", "DELETE", ["DELETE_SMART_CONTRACT_INTERFACE"]],
  ["FIAT_TRANSACTION", "CREATE", ["INIT_FIAT_ON_RAMP"]],
  ["ON_RAMP_CREDENTIALS", "CREATE", ["CREATE_FIAT_ON_RAMP_CREDENTIAL"]],
  ["ON_RAMP_CREDENTIALS", "UPDATE", ["UPDATE_FIAT_ON_RAMP_CREDENTIAL"]],
  ["ON_RAMP_CREDENTIALS", "DELETE", ["DELETE_FIAT_ON_RAMP_CREDENTIAL"]],
  ["SPONSORSHIP", "UPDATE", ["UPSERT_GAS_USAGE_CONFIG"]],
  ["TVC_APP", "CREATE", ["CREATE_TVC_APP"]],
  ["TVC_APP", "UPDATE", ["UPDATE_TVC_APP_LIVE_DEPLOYMENT"]],
  ["TVC_APP", "DELETE", ["DELETE_TVC_APP_AND_DEPLOYMENTS"]],
  ["TVC_DEPLOYMENT", "CREATE", ["CREATE_TVC_DEPLOYMENT", "CREATE_TVC_MANIFEST_APPROVALS"]],
  ["TVC_DEPLOYMENT", "UPDATE", ["RESTORE_TVC_DEPLOYMENT", "POST_TVC_QUORUM_KEY_SHARE"]],
  ["TVC_DEPLOYMENT", "DELETE", ["DELETE_TVC_DEPLOYMENT"]],
  ["TVC_OPERATOR", "CREATE", ["CREATE_TVC_OPERATOR"]],
  ["TVC_QUORUM_KEY", "CREATE", ["CREATE_TVC_QUORUM_KEY"]],
  ["TVC_QUORUM_KEY", "ENCRYPT", ["RE_ENCRYPT_TVC_QUORUM_KEY_SHARE"]],
  ["MFA_POLICY", "CREATE", ["CREATE_MFA_POLICY"]],
  ["MFA_POLICY", "UPDATE", ["UPDATE_MFA_POLICY"]],
  ["MFA_POLICY", "DELETE", ["DELETE_MFA_POLICY"]],
  ["SESSION_PROFILE", "CREATE", ["CREATE_SESSION_PROFILE"]],
  ["SECRET", "IMPORT", ["INIT_IMPORT_SECRETS", "IMPORT_SECRETS"]],
  ["SECRET", "EXPORT", ["EXPORT_SECRETS"]],
  ["SECRET", "DELETE", ["DELETE_SECRETS"]],
  ["VELOCITY_CONTROL", "CREATE", ["CREATE_VELOCITY_CONTROL"]],
  ["VELOCITY_CONTROL", "DELETE", ["DELETE_VELOCITY_CONTROL"]],
  // Earn (docs/earn.md, UNCONFIRMED(earn-policy-resource)): the wallet's own transactions sign with its key;
  // deploying, switching and claiming a wrapper's fees configure the organization's Earn.
  ["PRIVATE_KEY", "SIGN", ["EARN_DEPOSIT", "EARN_WITHDRAW", "EARN_CLAIM_REWARDS"]],
  ["CONFIG", "CREATE", ["EARN_DEPLOY_WRAPPER"]],
  ["CONFIG", "UPDATE", ["EARN_SET_WRAPPER_STATE", "CLAIM_EARN_FEES"]],
];

/** Activity type (without `ACTIVITY_TYPE_`) → resource and action. First row wins. */
export const RESOURCE_ACTION: ReadonlyMap<string, { resource: ActivityResource; action: ActivityAction }> = (() => {
  const m = new Map<string, { resource: ActivityResource; action: ActivityAction }>();
  for (const [resource, action, types] of ROWS) for (const t of types) if (!m.has(t)) m.set(t, { resource, action });
  return m;
})();

/** One exposed param: policy name, intent field (camelCase), and a value when the intent omits it. */
export type ParamSpec = readonly [name: string, intentField: string, whenMissing?: string];

const SIGN_RAW: readonly ParamSpec[] = [["hash_function", "hashFunction"], ["encoding", "encoding"]];
const EXPORT: readonly ParamSpec[] = [["target_public_key", "targetPublicKey"]];
const LOGIN: readonly ParamSpec[] = [["session_profile_id", "sessionProfileId", ""]];
const OTP_AUTH: readonly ParamSpec[] = [["otp_length", "otpLength"]];
const WEBHOOK: readonly ParamSpec[] = [["endpoint_id", "endpointId"]];
const API_KEYS: readonly ParamSpec[] = [["user_id", "userId"]];
const SPARK: readonly ParamSpec[] = [["sign_with", "signWith"]];

/** Activity type → the intent fields exposed as `activity.params` (documented table). */
export const EXPOSED_PARAMS: ReadonlyMap<string, readonly ParamSpec[]> = new Map<string, readonly ParamSpec[]>([
  ["SIGN_RAW_PAYLOAD", SIGN_RAW],
  ["SIGN_RAW_PAYLOAD_V2", SIGN_RAW],
  ["SIGN_RAW_PAYLOADS", SIGN_RAW],
  ["SIGN_TRANSACTION_V2", [["type", "type"]]],
  ["DELETE_USERS", [["user_ids", "userIds"]]],
  ["CREATE_API_KEYS", API_KEYS],
  ["CREATE_API_KEYS_V2", API_KEYS],
  ["DELETE_API_KEYS", [["user_id", "userId"], ["api_key_ids", "apiKeyIds"]]],
  ["EXPORT_WALLET", EXPORT],
  ["EXPORT_WALLET_ACCOUNT", EXPORT],
  ["EXPORT_PRIVATE_KEY", EXPORT],
  ["UPDATE_WALLET", [["wallet_id", "walletId"]]],
  ["INIT_OTP_AUTH_V2", OTP_AUTH],
  ["INIT_OTP_AUTH_V3", OTP_AUTH],
  ["OTP_LOGIN", LOGIN],
  ["OTP_LOGIN_V2", LOGIN],
  ["STAMP_LOGIN", LOGIN],
  ["OAUTH_LOGIN", LOGIN],
  ["UPDATE_WEBHOOK_ENDPOINT", WEBHOOK],
  ["DELETE_WEBHOOK_ENDPOINT", WEBHOOK],
  ["SPARK_SIGN_FROST", SPARK],
  ["SPARK_PREPARE_TRANSFER", SPARK],
  ["SPARK_CLAIM_TRANSFER", SPARK],
  ["SPARK_PREPARE_LIGHTNING_RECEIVE", SPARK],
  // Earn: ours (UNCONFIRMED(earn-policy-resource), docs/earn.md).
  ["EARN_DEPOSIT", [["sign_with", "signWith"], ["wrapper_address", "wrapperAddress"]]],
  ["EARN_WITHDRAW", [["sign_with", "signWith"], ["wrapper_address", "wrapperAddress"]]],
  ["EARN_CLAIM_REWARDS", [["sign_with", "signWith"]]],
]);
