/**
 * Votes cast from the control API (`POST /emulator/v1/activities/{id}/approve|reject`) as a
 * chosen user: an `approve_activity` / `reject_activity` request signed with one of that
 * user's API keys and sent to the emulator's own coordinator over HTTP, so it passes the
 * same stamp check, caller resolution, tenant isolation and consensus path as any vote, and
 * is recorded (and logged in the request log) like one.
 *
 * The key is one the emulator holds for that user: a fixture API key published with its
 * private half ("dev keys", remembered at start), or a private key the caller passes for
 * users made at run time. Nothing here stores or logs a private key.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { invalidArgument, notFound } from "../../core/errors.js";
import { coordinator } from "../../../contracts/index.js";
import { fixtureOrganizations, type Fixture } from "../../core/fixture.js";
import type { Runtime } from "../../core/runtime.js";
import type { ApiKeyRow } from "../../core/store/api-keys.js";

export type DevKey = { userId: string; publicKey: string; privateKey: string; curveType: string };

/** The fixture's published API key pairs (those with a `privateKey`): the instance keeps them as `rt.families.control.devKeys`. */
export function fixtureDevKeys(fixture: Fixture): DevKey[] {
  return fixtureOrganizations(fixture).flatMap(({ org }) =>
    org.users.flatMap((u) => u.apiKeys.filter((k) => k.privateKey).map((k) => ({ userId: u.userId, publicKey: k.publicKey.toLowerCase(), privateKey: k.privateKey!, curveType: k.curveType }))),
  );
}

/** The user's live API keys whose private half the emulator holds, with it. */
function heldKeys(rt: Runtime, userId: string): { key: ApiKeyRow; privateKey: string; curveType: string }[] {
  const now = rt.clock.now();
  const known = rt.families.control.devKeys;
  return rt.store.apiKeys
    .forUser(userId)
    .filter((k) => k.expiresAt === null || k.expiresAt > now)
    .flatMap((key) => {
      const dev = known.find((d) => d.userId === userId && d.publicKey === key.publicKey.toLowerCase());
      return dev ? [{ key, privateKey: dev.privateKey, curveType: dev.curveType }] : [];
    });
}

/** Whether the emulator can vote as this user without being given a key. */
export function holdsKeyFor(rt: Runtime, userId: string): boolean {
  return heldKeys(rt, userId).length > 0;
}

const CURVE_OF_TYPE: Record<string, string> = {
  CREDENTIAL_TYPE_API_KEY_P256: "API_KEY_CURVE_P256",
  CREDENTIAL_TYPE_API_KEY_SECP256K1: "API_KEY_CURVE_SECP256K1",
  CREDENTIAL_TYPE_API_KEY_ED25519: "API_KEY_CURVE_ED25519",
};

/** The user's API key whose private half is `privateKey` (any of the three curves). */
function keyForPrivate(rt: Runtime, userId: string, privateKey: unknown): { key: ApiKeyRow; privateKey: string; curveType: string } {
  if (typeof privateKey !== "string" || !/^[0-9a-fA-F]{64}$/.test(privateKey)) throw invalidArgument("apiPrivateKey must be 32 bytes of hex (64 characters)", "apiPrivateKey");
  const secret = hexToBytes(privateKey.toLowerCase());
  let candidates: string[];
  try {
    candidates = [bytesToHex(p256.getPublicKey(secret, true)), bytesToHex(secp256k1.getPublicKey(secret, true)), bytesToHex(ed25519.getPublicKey(secret))];
  } catch {
    throw invalidArgument("apiPrivateKey is not a valid private key", "apiPrivateKey");
  }
  const key = rt.store.apiKeys.forUser(userId).find((k) => candidates.includes(k.publicKey.toLowerCase()));
  if (!key) throw invalidArgument(`apiPrivateKey is not the private half of any API key of user ${userId}`, "apiPrivateKey");
  return { key, privateKey: privateKey.toLowerCase(), curveType: CURVE_OF_TYPE[key.credentialType] ?? "" };
}

/** An X-Stamp over `body` made with the key, in the format each curve's stampers produce. */
async function stampHeader(body: string, publicKey: string, privateKey: string, curveType: string): Promise<string> {
  if (curveType === "API_KEY_CURVE_P256") {
    // The official stamper, as an SDK client would stamp; loaded on the first UI vote (it and its
    // X.509 dependency cost ~100 ms of start-up otherwise).
    const { ApiKeyStamper } = await import("@turnkey/api-key-stamper");
    return (await new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey }).stamp(body)).stampHeaderValue;
  }
  const bytes = new TextEncoder().encode(body);
  let scheme: string;
  let signature: string;
  if (curveType === "API_KEY_CURVE_SECP256K1") {
    scheme = "SIGNATURE_SCHEME_TK_API_SECP256K1";
    signature = bytesToHex(secp256k1.sign(bytes, hexToBytes(privateKey), { format: "der" }));
  } else if (curveType === "API_KEY_CURVE_ED25519") {
    scheme = "SIGNATURE_SCHEME_TK_API_ED25519";
    signature = bytesToHex(ed25519.sign(bytes, hexToBytes(privateKey)));
  } else {
    throw invalidArgument(`the API key ${publicKey} has a curve this route cannot sign with`, "apiPrivateKey");
  }
  return Buffer.from(JSON.stringify({ publicKey, scheme, signature })).toString("base64url");
}

export type VoteRequest = { userId?: unknown; apiPrivateKey?: unknown };
export type VoteAnswer = { status: number; body: unknown; voter?: { userId: string; apiKeyId: string; publicKey: string } };

/**
 * Casts an approval or rejection of activity `activityId` as `userId`; answers what the
 * coordinator answered (the activity after the vote, or its rpcStatus error).
 */
export async function castVote(rt: Runtime, activityId: string, selection: "approve" | "reject", req: VoteRequest): Promise<VoteAnswer> {
  const activity = rt.store.activities.byId(activityId);
  if (!activity) throw notFound(`activity not found: ${activityId}`);
  if (typeof req.userId !== "string" || !req.userId) throw invalidArgument("userId is required: the user of the activity's organization who votes", "userId");
  const user = rt.store.users.get(activity.orgId, req.userId);
  if (!user) throw invalidArgument(`user ${req.userId} is not a user of organization ${activity.orgId}`, "userId");
  const held =
    req.apiPrivateKey !== undefined && req.apiPrivateKey !== null && req.apiPrivateKey !== ""
      ? keyForPrivate(rt, user.id, req.apiPrivateKey)
      : (heldKeys(rt, user.id)[0] ??
        (() => {
          throw invalidArgument(
            `the emulator holds no private key for an API key of user ${user.id} (it holds the fixture's published dev keys only): pass apiPrivateKey, the private half of one of the user's API keys`,
            "userId",
          );
        })());
  const op = coordinator[`/public/v1/submit/${selection}_activity`]!;
  const body = JSON.stringify({ type: op.activityType, timestampMs: String(rt.clock.now()), organizationId: activity.orgId, parameters: { fingerprint: activity.fingerprint } });
  const stamp = await stampHeader(body, held.key.publicKey, held.privateKey, held.curveType);
  const res = await fetch(`${rt.urls.baseUrl}/public/v1/submit/${selection}_activity`, { method: "POST", headers: { "content-type": "application/json", "X-Stamp": stamp }, body });
  const text = await res.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = { code: 13, message: `the coordinator answered a vote with a non-JSON body (HTTP ${res.status})`, details: [] };
  }
  return { status: res.status, body: answer, voter: { userId: user.id, apiKeyId: held.key.id, publicKey: held.key.publicKey } };
}
