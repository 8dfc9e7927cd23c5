/**
 * How the proxy does its work: like the real service, it signs a coordinator request with the
 * proxy key and submits it as the proxy user of the configuration's organization, so every
 * forwarded call is a real activity (listed by list_activities, decided by the policies).
 */
import { coordinator, parseRequest } from "../../../contracts/index.js";
import { internal, permissionDenied, unauthenticated } from "../../core/errors.js";
import { signDerHex } from "../../bundles/index.js";
import { submitActivity } from "../../core/engine/engine.js";
import type { Caller } from "../../core/auth/caller.js";
import type { Runtime } from "../../core/runtime.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import type { ProxyContext } from "../../core/vocabulary/contexts.js";
import type { ActivityType, CurrentActivityType, IntentOf, ResultOf, SubmitName } from "../../core/vocabulary/define.js";

/** The last timestamp the instance's proxy stamped a forward with (`rt.families.authProxy.clock`). */
export type ProxyClock = { lastMs: number };

/** The stamp time of a forward made at `now`: strictly increasing per instance, so two identical forwards never share a fingerprint. */
function timestampFor(rt: Runtime, now: number): number {
  const clock = rt.families.authProxy.clock;
  const ts = Math.max(now, clock.lastMs + 1);
  clock.lastMs = ts;
  return ts;
}

/** The proxy user with its key as the caller (the signature is the forwarded body's, or empty for reads). */
export function proxyCaller(px: ProxyContext, signature = ""): Caller {
  const { store } = px.rt;
  const user = store.users.byId(px.config.proxyUserId);
  const key = user && store.apiKeys.forUser(user.id).find((k) => k.id === px.config.proxyApiKeyId);
  if (!user || !key) throw unauthenticated("the auth proxy's user or API key no longer exists in the organization: disable and enable the auth proxy again");
  return {
    user,
    org: px.org,
    credential: { kind: "api_key", id: key.id, publicKey: key.publicKey, type: key.credentialType, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature },
  };
}

/**
 * Submits `parameters` to the coordinator's submit operation `name` (in `target`, default the
 * configuration's organization) as the operation's current activity type, or as
 * `activityType`, an older version its entry accepts, and returns the activity's result
 * member. Both are the contract's for that activity type, so a misspelled or missing
 * parameter, or a result field the type has not, does not compile.
 */
export async function forward<N extends SubmitName, T extends ActivityType = CurrentActivityType<N>>(
  px: ProxyContext,
  name: N,
  parameters: NoInfer<IntentOf<T>>,
  opts: { target?: OrganizationRow; activityType?: T } = {},
): Promise<ResultOf<T>> {
  const routed = coordinator[`/public/v1/submit/${name}`];
  const { op, entry, accepted } = routed ? px.rt.registry.resolveActivity(routed, opts.activityType) : { op: undefined, entry: undefined, accepted: false };
  if (!op?.activityType || !entry || !accepted) {
    throw internal(`auth proxy: no emulated coordinator operation ${name}${opts.activityType ? ` for ${opts.activityType}` : ""}`);
  }
  const target = opts.target ?? px.org;
  const params = JSON.parse(JSON.stringify(parameters)) as Record<string, unknown>;
  // The request's instant: its stamp time and the submission's `now`.
  const now = px.now;
  const body = { type: op.activityType, timestampMs: String(timestampFor(px.rt, now)), organizationId: target.id, parameters: params };
  parseRequest(op.request, body);
  const raw = Buffer.from(JSON.stringify(body), "utf8");
  const secret = px.rt.store.sealer.open(px.config.proxyKeySealed);
  let signature: string;
  try {
    signature = signDerHex(raw, secret);
  } finally {
    secret.fill(0);
  }
  // A policy denial throws here, recorded FAILED: the proxy answers the coordinator's 403 as it is.
  const activity = await submitActivity(px.rt, { op, entry, body, rawBody: raw, caller: proxyCaller(px, signature), target, now });
  if (activity.status === "ACTIVITY_STATUS_COMPLETED") return (op.resultKey ? activity.result[op.resultKey] : {}) as ResultOf<T>;
  throw permissionDenied(`auth proxy: activity ${activity.id} (${activity.type}) ended ${activity.status}; the organization's policies must allow the proxy user to run it`);
}
