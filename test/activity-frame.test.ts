/**
 * The activity frame (emulator/core/engine/frame.ts): one signing activity resolves its signer
 * once and builds its policy context once, although the session's scope, the policies and an
 * MFA policy all read that context and the handler signs with that signer. Counted on the
 * store's repositories while requests go through @turnkey/sdk-server: a signer lookup reads
 * the wallet account by address; each policy context reads the organization's velocity
 * controls (the `controls` keyword) once, before the activity is written (the velocity
 * recorder reads them again after it is written: not counted).
 */
import { afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { keccak256, parseTransaction, recoverAddress, recoverTransactionAddress, serializeTransaction, type Hex } from "viem";
import { createApiKeyUser, newP256KeyPair, sdkClient, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();
const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const TO = "0x0000000000000000000000000000000000000004";

let session: KeyPair;
let policyId: string;
let mfaPolicyId: string;

beforeAll(async () => {
  const root = sdkClient(emu);
  // A user outside the root quorum, so that every activity of theirs is decided by the policies.
  const signer = await createApiKeyUser(emu, "frame signer");
  ({ policyId } = await root.createPolicy({ policyName: "frame signer may act", effect: "EFFECT_ALLOW", condition: "true", consensus: `approvers.any(user, user.id == '${signer.id}')`, notes: "" }));
  // Their session is bounded by a profile's scope, and signing falls under an MFA policy that a session stamp meets.
  const { sessionProfileId } = await root.createSessionProfile({ sessionProfileName: "signing only", scope: "activity.action == 'SIGN'" });
  const own = sdkClient(emu, signer.key);
  ({ mfaPolicyId } = await own.createMfaPolicy({
    userId: signer.id,
    mfaPolicyName: "signing in a session",
    condition: "activity.action == 'SIGN'",
    requiredAuthenticationMethods: [{ any: [{ type: "AUTHENTICATION_TYPE_SESSION" }] }] as never,
    order: 0,
  }));
  session = newP256KeyPair();
  await own.stampLogin({ publicKey: session.publicKey, sessionProfileId });
});

let spies: MockInstance[] = [];
afterEach(() => {
  for (const s of spies) s.mockRestore();
  spies = [];
});

/** Spies (calling through) on the store reads that mark a signer lookup and a policy context. */
function countReads() {
  const { store } = emu.runtime;
  const accountLookups = vi.spyOn(store.wallets, "accountByAddress");
  const controlsReads = vi.spyOn(store.velocityControls, "any");
  const contractLookups = vi.spyOn(store.smartContractInterfaces, "byAddress");
  const inserts = vi.spyOn(store.activities, "insert");
  spies.push(accountLookups, controlsReads, contractLookups, inserts);
  return {
    signerLookups: () => accountLookups.mock.calls.filter(([, address]) => address === ANVIL_0).length,
    contextsBuilt: () => {
      const written = inserts.mock.invocationCallOrder[0] ?? Infinity;
      return controlsReads.mock.invocationCallOrder.filter((order) => order < written).length;
    },
    contractLookups: () => contractLookups.mock.calls.length,
  };
}

/** The activity was decided by the policies, and MFA was evaluated and met by the session's stamp. */
async function decidedByPoliciesAndMfa(activityId: string) {
  const root = sdkClient(emu);
  const { policyEvaluations } = await root.getPolicyEvaluations({ activityId });
  expect(policyEvaluations.flatMap((e) => e.policyEvaluations.map((p) => [p.policyId, p.outcome]))).toContainEqual([policyId, "OUTCOME_ALLOW"]);
  const { mfaStatuses } = await root.getMfaStatus({ activityId });
  expect(mfaStatuses.map((s) => [s.mfaPolicyId, s.satisfied])).toEqual([[mfaPolicyId, true]]);
}

describe("an activity's frame", () => {
  it("sign_raw_payload looks its signer up once and builds its policy context once", async () => {
    const reads = countReads();
    const payload = keccak256("0x0102");
    const r = await sdkClient(emu, session).signRawPayload({ signWith: ANVIL_0, payload, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(await recoverAddress({ hash: payload, signature: { r: `0x${r.r}`, s: `0x${r.s}`, yParity: Number(r.v) } })).toBe(ANVIL_0);
    expect(reads.signerLookups()).toBe(1);
    expect(reads.contextsBuilt()).toBe(1);
    await decidedByPoliciesAndMfa(r.activity.id);
  });

  it("sign_transaction looks its signer up once and builds (and decodes into) its policy context once", async () => {
    const reads = countReads();
    const unsigned = serializeTransaction({ type: "eip1559", chainId: 1, to: TO, value: 1n, nonce: 0, gas: 21000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n });
    const r = await sdkClient(emu, session).signTransaction({ signWith: ANVIL_0, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: unsigned });
    expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const signed = `0x${r.signedTransaction.replace(/^0x/, "")}` as Hex;
    expect(parseTransaction(signed).to).toBe(TO);
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(ANVIL_0);
    expect(reads.signerLookups()).toBe(1);
    expect(reads.contextsBuilt()).toBe(1);
    // The transaction's `to` is looked up among the smart contract interfaces once, by the one context.
    expect(reads.contractLookups()).toBe(1);
    await decidedByPoliciesAndMfa(r.activity.id);
  });

  it("the session's scope still bounds what the frame's context allows", async () => {
    const err = (await sdkClient(emu, session)
      .createUserTag({ userTagName: "out of scope", userIds: [] })
      .catch((e: unknown) => e)) as { code?: number; message: string };
    expect(err.code).toBe(7);
    expect(err.message).toMatch(/session's profile .* does not allow this activity/);
  });
});
