/**
 * The vocabulary of what the policy language exposes about an activity as
 * `activity.resource`, `activity.action` and `activity.params`, and the rows for activity
 * types that no operation entry accepts.
 *
 * An emulated (or not-emulated) operation declares its own facts on its registry entry
 * (`policy` of `defineActivity`, core/vocabulary/define.ts); the registry answers `policyOf(type)`
 * from the entries first, then from RESIDUAL_TAXONOMY below. A type in neither has no
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

/** One exposed param: policy name, intent field (camelCase), and a value when the intent omits it. */
export type ParamSpec = readonly [name: string, intentField: string, whenMissing?: string];

/**
 * What policies see of an activity type. `source`: "documented" follows the published
 * resource/action table; "inferred" is read from the type's name (UNCONFIRMED).
 */
export type ActivityPolicy = {
  resource: ActivityResource;
  action: ActivityAction;
  source: "documented" | "inferred";
  params?: readonly ParamSpec[];
};

type Row = readonly [ActivityResource, ActivityAction, readonly string[]];

/**
 * Types no registry entry stands for: types of operations the published API routes nowhere
 * (dashboard and billing actions). Nothing the emulator runs has these types; they keep the
 * taxonomy whole for anyone reading it (`policyOf`). Every older version of a routed operation
 * is accepted by its entry, which says what policies see of it.
 */
const DOCUMENTED: readonly Row[] = [
  ["ORGANIZATION", "DELETE", ["DELETE_ORGANIZATION"]],
  ["AUTH_PROXY", "CREATE", ["ENABLE_AUTH_PROXY"]],
  ["AUTH_PROXY", "DELETE", ["DISABLE_AUTH_PROXY"]],
  ["AUTH_PROXY", "UPDATE", ["UPDATE_AUTH_PROXY_CONFIG"]],
  ["CONFIG", "UPDATE", ["UPDATE_ALLOWED_ORIGINS"]],
];

/** Inferred from names (UNCONFIRMED). */
const INFERRED: readonly Row[] = [
  ["ORGANIZATION", "CREATE", ["CREATE_ORGANIZATION", "CREATE_ORGANIZATION_V2"]],
  ["WALLET", "UPDATE", ["UPDATE_WALLET_ACCOUNT_NAME"]],
  ["PRIVATE_KEY", "UPDATE", ["DISABLE_PRIVATE_KEY"]],
  ["INVITATION", "UPDATE", ["ACCEPT_INVITATION", "ACCEPT_INVITATION_V2"]],
  ["PAYMENT_METHOD", "CREATE", ["SET_PAYMENT_METHOD", "SET_PAYMENT_METHOD_V2"]],
  ["PAYMENT_METHOD", "DELETE", ["DELETE_PAYMENT_METHOD"]],
  ["SUBSCRIPTION", "UPDATE", ["ACTIVATE_BILLING_TIER"]],
  ["SPONSORSHIP", "UPDATE", ["UPSERT_GAS_USAGE_CONFIG"]],
];

/** Activity type (without `ACTIVITY_TYPE_`) that no entry accepts → what policies see of it. */
export const RESIDUAL_TAXONOMY: ReadonlyMap<string, ActivityPolicy> = (() => {
  const m = new Map<string, ActivityPolicy>();
  const add = (rows: readonly Row[], source: ActivityPolicy["source"]) => {
    for (const [resource, action, types] of rows) {
      for (const t of types) {
        if (m.has(t)) throw new Error(`activity taxonomy: ${t} has two rows`);
        m.set(t, { resource, action, source });
      }
    }
  };
  add(DOCUMENTED, "documented");
  add(INFERRED, "inferred");
  return m;
})();
