/** The wire form (v1Activity) of a stored activity. */
import { toTimestamp } from "../clock.js";
import type { Store } from "../store/index.js";
import type { Runtime } from "../runtime.js";
import type { ActivityRow, StoredVote } from "../store/activities.js";
import { renderUser } from "./users.js";
import { keptReadings } from "../store/table-changes.js";

type UserView = ReturnType<typeof renderUser>;

/**
 * Renderings of voters, reused while no user data changes (store/table-changes.ts): a signing
 * activity's response would otherwise read its voter's user, keys, authenticators, tags,
 * OAuth providers and MFA policies again (six queries) on every request. Only reads of
 * committed rows are kept: outside a transaction, or inside one that has not changed a user
 * yet (the webhook outbox renders inside the activity's transaction).
 */
const keptVoter = keptReadings<UserView | null>("users");

function voterView(store: Store, userId: string): UserView | null {
  return keptVoter(store.db, userId, () => {
    const user = store.users.byId(userId);
    return user ? renderUser(store, user) : null;
  });
}

function renderVote(store: Store, activityId: string, v: StoredVote): Record<string, unknown> {
  const user = voterView(store, v.userId);
  return {
    id: v.id,
    userId: v.userId,
    // The voter may since have been deleted: keep the vote readable with what is known.
    user: user ?? { userId: v.userId, userName: "", authenticators: [], apiKeys: [], userTags: [], oauthProviders: [], createdAt: toTimestamp(v.createdAt), updatedAt: toTimestamp(v.createdAt), mfaPolicies: [] },
    activityId,
    selection: v.selection,
    message: v.message,
    publicKey: v.publicKey,
    signature: v.signature,
    scheme: v.scheme,
    createdAt: toTimestamp(v.createdAt),
  };
}

/**
 * A row object is rendered once: the webhook outbox renders the row an activity was recorded
 * with inside its transaction, and the response to the request reuses that rendering.
 */
const rendered = new WeakMap<ActivityRow, Record<string, unknown>>();

export function renderActivity(rt: Pick<Runtime, "store" | "hooks">, a: ActivityRow): Record<string, unknown> {
  let view = rendered.get(a);
  if (!view) rendered.set(a, (view = renderOnce(rt, a)));
  return view;
}

function renderOnce(rt: Pick<Runtime, "store" | "hooks">, a: ActivityRow): Record<string, unknown> {
  const { store } = rt;
  const open = a.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED";
  return {
    id: a.id,
    organizationId: a.orgId,
    status: a.status,
    type: a.type,
    intent: a.intent,
    result: a.result,
    votes: a.votes.map((v) => renderVote(store, a.id, v)),
    fingerprint: a.fingerprint,
    canApprove: open,
    canReject: open,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
    ...(a.failure ? { failure: a.failure } : {}),
    // What the families add (the app proofs of an activity that asked for them).
    ...rt.hooks.activityView(rt as Runtime, a),
  };
}
