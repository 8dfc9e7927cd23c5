/**
 * App proofs for activities submitted with `generateAppProofs: true` (top level, or inside
 * `parameters` as @turnkey/core may send it). When such an activity completes, one
 * APP_PROOF_TYPE_ADDRESS_DERIVATION proof per address it derived is signed with the
 * instance's ephemeral key and recorded (repository.ts); `activity.appProofs` and
 * list_app_proofs read them back. @turnkey/crypto's verifyAppProofSignature accepts them;
 * the boot proof that would tie the ephemeral key to an attested enclave cannot exist
 * offline (get_boot_proof answers 501).
 *
 * An activity derives addresses when its registry entry says which (`appProofs`, e.g.
 * create_wallet, import_wallet, create_wallet_accounts and create_sub_organization with a
 * wallet). Other activities asked for proofs get none: the service's other proof types
 * (policy outcomes) have no published payload schema to follow.
 */
import { derivedP256KeyPair, makeAppProof, type EphemeralKeys } from "../../bundles/index.js";
import type { ActivityRow } from "../../core/store/activities.js";
import type { Runtime } from "../../core/runtime.js";
import type { CompletedActivity } from "../../core/hooks.js";
import type { InstanceKeys } from "../../core/auth/instance-keys.js";
import type { ActivityEntry, AddressDerivation } from "../../core/vocabulary/define.js";
import { fieldOf } from "../../../contracts/proto-json.js";

export type { AddressDerivation };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined);
const member = (o: Obj): Obj | undefined => obj(Object.values(o)[0]);

/**
 * Whether a submission asks for app proofs: `generateAppProofs` at the top of its parsed body,
 * or inside its parameters as sent (@turnkey/sdk-server puts it there; no intent has the field,
 * so the contract parse leaves it out), under either name protobuf's JSON mapping accepts.
 * The engine keeps the answer on the activity (`asksAppProofs`).
 */
export function asksForAppProofs(body: { generateAppProofs?: unknown }, sent: Record<string, unknown>): boolean {
  return body.generateAppProofs === true || fieldOf(fieldOf(sent, "parameters"), "generateAppProofs") === true;
}

/**
 * Each derived address with its wallet and path (the requested account at the same index), in
 * result order; anything malformed derives nothing. For entries' `appProofs`.
 */
export function addressDerivations(organizationId: string, walletId: unknown, addresses: unknown, accounts: unknown): AddressDerivation[] {
  if (typeof walletId !== "string" || !Array.isArray(addresses) || !Array.isArray(accounts)) return [];
  return addresses.flatMap((address, i) => {
    const path = obj(accounts[i])?.path;
    return typeof address === "string" && typeof path === "string" ? [{ organizationId, walletId, derivationPath: path, address }] : [];
  });
}

/** The addresses a completed activity derived, as its entry's `appProofs` reads its intent and result. */
export function addressDerivationsOf(a: ActivityRow, entry: Pick<ActivityEntry, "appProofs"> | undefined): AddressDerivation[] {
  const intent = member(a.intent);
  const result = member(a.result);
  if (!entry?.appProofs || !intent || !result) return [];
  return entry.appProofs(intent, result, a);
}

/**
 * An instance's ephemeral key pair set (encryption, signing): derived from its enclave signer
 * key, so it is stable for an instance and its snapshots, as one enclave boot's key is. The
 * instance holds it (`rt.families.appProofs.keys`), never module state.
 */
export function ephemeralKeysFor(instanceKeys: InstanceKeys): EphemeralKeys {
  const ikm = instanceKeys.enclave.signer.privateKey;
  const derive = (role: string) => derivedP256KeyPair(ikm, "turnkey-emulator/app-proof-ephemeral/v1", role);
  return { encryption: derive("encryption"), signing: derive("signing") };
}

/** Records the app proofs of a completed activity that asked for them (once): one per address its entry says it derived. */
export function recordAppProofs(rt: Runtime, { activity: a, entry }: CompletedActivity): void {
  if (!a.asksAppProofs || rt.store.appProofs.has(a.id)) return;
  const keys = rt.families.appProofs.keys;
  addressDerivationsOf(a, entry).forEach((d, idx) => {
    const proof = makeAppProof({ type: "APP_PROOF_TYPE_ADDRESS_DERIVATION", timestampMs: String(a.updatedAt), addressDerivationProof: d }, keys);
    rt.store.appProofs.insert({ activityId: a.id, orgId: a.orgId, idx, ...proof, createdAt: a.updatedAt });
  });
}

/** The wire form of an activity's recorded proofs. */
export function appProofsOf(rt: Pick<Runtime, "store">, activityId: string): { scheme: "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256"; publicKey: string; proofPayload: string; signature: string }[] {
  return rt.store.appProofs.of(activityId).map((p) => ({ scheme: "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256", publicKey: p.publicKey, proofPayload: p.proofPayload, signature: p.signature }));
}
