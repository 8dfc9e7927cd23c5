/**
 * Policy denials answer as the service does: an rpcStatus error (code 7, HTTP 403) carrying a
 * PolicyEnginePermissionError with every policy's outcome, while the activity is recorded
 * FAILED for get_activity / list_activities / get_policy_evaluations.
 *
 * The deny case of Turnkey's own @turnkey/ethers and @turnkey/viem integration suites
 * (tkhq/sdk packages/{ethers,viem}/src/__tests__/index-test.ts: a non-root user, an allow-all
 * policy and a DENY policy on eth.tx.to) is reproduced through the published signers; the
 * expected texts are the live service's (docs/activity-lifecycle.md names the sources).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TurnkeySigner, TurnkeyActivityError as EthersActivityError } from "@turnkey/ethers";
import { createAccount, TurnkeyActivityError as ViemActivityError } from "@turnkey/viem";
import { Transaction, parseEther, verifyMessage } from "ethers";
import { parseGwei, type Hex } from "viem";
import { httpClient, newP256KeyPair, rawPost, sdkClient, submitBody, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

/** The live service's top-level message for a policy denial (implicit and explicit alike). */
const DENIED =
  "You don't have sufficient permissions to take this action. Please add a policy granting this user permissions. Learn more at https://docs.turnkey.com/concepts/policies/quickstart.";
const ENGINE_ERROR = "type.googleapis.com/errors.v1.PolicyEnginePermissionError";
const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const BANNED = "0x08d2b0a37F869FF76BACB5Bab3278E26ab7067B7";
const ALLOWED = "0x2Ad9eA1E677949a536A270CEC812D6e868C88108";

type Evaluation = { policyId: string; outcome: string };
type EngineDetail = { "@type": string; message: string; policyEvaluations: Evaluation[] };
type RequestError = Error & { code?: number; details?: EngineDetail[] | null };

/** The SDK suite's organization: the signer's allow-all and DENY policies. */
const emu = useTestEmulator();
/** An organization with no policy for the users made in it (an ALLOW naming someone else would make them wait for consensus). */
const bare = useTestEmulator();
let signer: { id: string; key: KeyPair };
let allowAllId: string;
let denyId: string;
let privateKeyId: string;
let privateKeyAddress: string;

async function newUser(name: string, e = emu): Promise<{ id: string; key: KeyPair }> {
  const key = newP256KeyPair();
  const r = await sdkClient(e).createUsers({ users: [{ userName: name, apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
  return { id: r.userIds[0]!, key };
}

beforeAll(async () => {
  const root = sdkClient(emu);
  signer = await newUser("sdk-suite-signer");
  const only = `approvers.any(user, user.id == '${signer.id}')`;
  allowAllId = (await root.createPolicy({ policyName: "signer may do anything", effect: "EFFECT_ALLOW", consensus: only, condition: "true", notes: "" })).policyId;
  denyId = (await root.createPolicy({ policyName: "never to the banned address", effect: "EFFECT_DENY", consensus: only, condition: `eth.tx.to == '${BANNED.toLowerCase()}'`, notes: "" })).policyId;
  const pk = await root.createPrivateKeys({ privateKeys: [{ privateKeyName: "suite key", curve: "CURVE_SECP256K1", addressFormats: ["ADDRESS_FORMAT_ETHEREUM"], privateKeyTags: [] }] });
  privateKeyId = pk.privateKeys[0]!.privateKeyId!;
  privateKeyAddress = pk.privateKeys[0]!.addresses![0]!.address!;
});

/** The explicit deny's detail: names the DENY policy and reports the ALLOW that also matched. */
function expectExplicitDeny(details: EngineDetail[] | null | undefined): void {
  expect(details).toHaveLength(1);
  const [d] = details!;
  expect(d!["@type"]).toBe(ENGINE_ERROR);
  expect(d!.message).toBe(`The following policies denied this action: ${denyId}`);
  expect(d!.policyEvaluations).toEqual(
    expect.arrayContaining([
      { policyId: allowAllId, outcome: "OUTCOME_ALLOW" },
      { policyId: denyId, outcome: "OUTCOME_DENY_EXPLICIT" },
    ]),
  );
}

const ethTx = (to: string) => ({ to, value: parseEther("1.0"), chainId: 31337n, nonce: 0, gasLimit: 21000n, maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n, type: 2 });

describe("@turnkey/ethers TurnkeySigner, as in the SDK's own suite", () => {
  const configs = [
    { configName: "Wallet Account", signWith: () => ANVIL_0, address: () => ANVIL_0 },
    { configName: "Private Key ID", signWith: () => privateKeyId, address: () => privateKeyAddress },
    { configName: "Private Key Address", signWith: () => privateKeyAddress, address: () => privateKeyAddress },
  ];
  for (const cfg of configs) {
    it(`signs under the allow-all policy and throws on the deny policy (${cfg.configName})`, async () => {
      const s = new TurnkeySigner({ client: httpClient(emu, signer.key) as never, organizationId: emu.info.organizationId, signWith: cfg.signWith() });
      expect(await s.getAddress()).toBe(cfg.address());

      const signed = await s.signTransaction(ethTx(ALLOWED));
      expect(Transaction.from(signed).from).toBe(cfg.address());
      expect(verifyMessage("Hello Turnkey", await s.signMessage("Hello Turnkey"))).toBe(cfg.address());

      const error = await s.signTransaction(ethTx(BANNED)).then(
        () => expect.unreachable("the deny policy must refuse the transaction"),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(EthersActivityError);
      const { message, cause, activityId, activityStatus, activityType } = error as InstanceType<typeof EthersActivityError>;
      // No activity in the answer: the signer got an HTTP error, as the suite's comment says.
      expect([activityId, activityStatus, activityType]).toEqual([undefined, undefined, undefined]);
      const inner = cause as RequestError;
      expect(inner.name).toBe("TurnkeyRequestError");
      expect(inner.code).toBe(7);
      expect(inner.message).toBe(`Turnkey error 7: ${DENIED} (Details: ${JSON.stringify(inner.details)})`);
      expect(message).toBe(`Failed to sign: ${inner.message}`);
      expectExplicitDeny(inner.details);
    });
  }
});

describe("@turnkey/viem account, as in the SDK's own suite", () => {
  it("signs to an allowed address and throws TurnkeyActivityError on the deny policy", async () => {
    const account = await createAccount({ client: httpClient(emu, signer.key) as never, organizationId: emu.info.organizationId, signWith: ANVIL_0 });
    const base = { type: "eip1559" as const, chainId: 31337, nonce: 0, value: parseEther("1.0"), gas: 21000n, maxFeePerGas: parseGwei("2"), maxPriorityFeePerGas: parseGwei("2") };
    expect(Transaction.from(await account.signTransaction({ ...base, to: ALLOWED as Hex })).from).toBe(ANVIL_0);

    const error = await account.signTransaction({ ...base, to: BANNED as Hex }).then(
      () => expect.unreachable("the deny policy must refuse the transaction"),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ViemActivityError);
    const { message, activityId, activityStatus } = error as InstanceType<typeof ViemActivityError>;
    expect([activityId, activityStatus]).toEqual([undefined, undefined]);
    expect(message.startsWith(`Failed to sign: Turnkey error 7: ${DENIED} (Details: [`)).toBe(true);
    // viem's error appends its version after the SDK's text.
    const details = JSON.parse(/\(Details: (\[.*\])\)/s.exec(message)![1]!) as EngineDetail[];
    expectExplicitDeny(details);
  });
});

describe("@turnkey/sdk-server", () => {
  it("rejects with TurnkeyRequestError code 7; the FAILED activity is recorded with its failure and evaluations", async () => {
    const c = sdkClient(emu, signer.key);
    const unsignedTransaction = Transaction.from({ ...ethTx(BANNED), to: BANNED }).unsignedSerialized.slice(2);
    const error = (await c.signTransaction({ signWith: ANVIL_0, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction }).then(
      () => expect.unreachable("the deny policy must refuse the transaction"),
      (e: unknown) => e,
    )) as RequestError;
    expect(error.name).toBe("TurnkeyRequestError");
    expect(error.code).toBe(7);
    expect(error.message).toBe(`Turnkey error 7: ${DENIED} (Details: ${JSON.stringify(error.details)})`);
    expectExplicitDeny(error.details);

    // The denied activity is still there, FAILED, with the same failure.
    const { activities } = await sdkClient(emu).getActivities({ filterByType: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"], filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
    const failed = activities.find((a) => (a.intent.signTransactionIntentV2 as { unsignedTransaction?: string } | undefined)?.unsignedTransaction === unsignedTransaction);
    expect(failed).toBeDefined();
    const { activity } = await c.getActivity({ activityId: failed!.id });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(activity.votes.map((v) => v.userId)).toEqual([signer.id]);
    expect(activity.failure).toMatchObject({ code: 7, message: DENIED });
    expectExplicitDeny(activity.failure!.details as unknown as EngineDetail[]);
    const evals = await c.getPolicyEvaluations({ activityId: failed!.id });
    expect(evals.policyEvaluations).toHaveLength(1);
    expect(evals.policyEvaluations[0]!.policyEvaluations).toEqual(expect.arrayContaining([{ policyId: denyId, outcome: "OUTCOME_DENY_EXPLICIT" }]));
  });
});

describe("implicit deny", () => {
  it("no policy allows: the detail says so and lists each policy's outcome", async () => {
    const loner = await newUser("no-policy-user", bare);
    const error = (await sdkClient(bare, loner.key)
      .signRawPayload({ signWith: ANVIL_0, payload: "0x" + "ab".repeat(32), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" })
      .then(
        () => expect.unreachable("nothing allows this user to sign"),
        (e: unknown) => e,
      )) as RequestError;
    expect(error.code).toBe(7);
    expect(error.message.startsWith(`Turnkey error 7: ${DENIED} (Details: `)).toBe(true);
    expect(error.details).toHaveLength(1);
    const [d] = error.details!;
    expect(d!["@type"]).toBe(ENGINE_ERROR);
    expect(d!.message).toBe("No policies evaluated to outcome: Allow");
    // Every policy of the organization is reported; none allowed, none denied explicitly.
    const { policies } = await sdkClient(bare).getPolicies({});
    expect(d!.policyEvaluations.map((e) => e.policyId).sort()).toEqual(policies.map((p) => p.policyId).sort());
    expect(d!.policyEvaluations.filter((e) => e.outcome === "OUTCOME_ALLOW" || e.outcome === "OUTCOME_DENY_EXPLICIT")).toEqual([]);
  });

  it("in an organization without policies the evaluations are empty (the with-solana example's error)", async () => {
    // A sub-organization has no policies of its own: deny a non-root user there.
    const root = sdkClient(bare);
    const subRootKey = newP256KeyPair();
    const userKey = newP256KeyPair();
    const sub = await root.createSubOrganization({
      subOrganizationName: "no-policies",
      rootUsers: [
        { userName: "sub-root", apiKeys: [{ apiKeyName: "k", publicKey: subRootKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] },
      ],
      rootQuorumThreshold: 1,
    });
    const subOrg = sub.subOrganizationId;
    const { userIds } = await sdkClient(bare, subRootKey, subOrg).createUsers({ users: [{ userName: "member", apiKeys: [{ apiKeyName: "k", publicKey: userKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    expect(userIds).toHaveLength(1);
    const error = (await sdkClient(bare, userKey, subOrg)
      .createWallet({ walletName: "not allowed", accounts: [] })
      .then(
        () => expect.unreachable("nothing allows this user to create a wallet"),
        (err: unknown) => err,
      )) as RequestError;
    expect(error.code).toBe(7);
    expect(error.details).toEqual([{ "@type": ENGINE_ERROR, message: "No policies evaluated to outcome: Allow", policyEvaluations: [] }]);
    expect((await sdkClient(bare, subRootKey, subOrg).getWallets({})).wallets).toEqual([]);
  });
});

describe("every kind of activity is denied the same way", () => {
  it("wallets, users, policies and signing: HTTP 403 rpcStatus, no activity in the body, a FAILED activity recorded", async () => {
    const nobody = await newUser("denied-everywhere", bare);
    const attempts: [string, string, unknown][] = [
      ["create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "w", accounts: [] }],
      ["create_users", "ACTIVITY_TYPE_CREATE_USERS_V4", { users: [{ userName: "u", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] }],
      ["create_policy", "ACTIVITY_TYPE_CREATE_POLICY_V3", { policyName: "self-grant", effect: "EFFECT_ALLOW", condition: "true", notes: "" }],
      ["sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: ANVIL_0, payload: "0x" + "cd".repeat(32), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" }],
    ];
    for (const [op, type, parameters] of attempts) {
      const before = (await sdkClient(bare).getActivities({ filterByType: [type as never], filterByStatus: ["ACTIVITY_STATUS_FAILED"] })).activities.length;
      const r = await rawPost(bare, `/public/v1/submit/${op}`, submitBody(bare, type, parameters), { key: nobody.key });
      expect(r.status, op).toBe(403);
      expect(Object.keys(r.json).sort(), op).toEqual(["code", "details", "message"]);
      expect(r.json, op).toMatchObject({ code: 7, message: DENIED, details: [{ "@type": ENGINE_ERROR, message: "No policies evaluated to outcome: Allow" }] });
      const after = await sdkClient(bare).getActivities({ filterByType: [type as never], filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
      expect(after.activities.length, op).toBe(before + 1);
      expect(after.activities[0]!.votes[0]!.userId, op).toBe(nobody.id);
      expect(after.activities[0]!.failure, op).toEqual(r.json);
    }
    // Nothing was written by the denied activities.
    expect((await sdkClient(bare).getPolicies({})).policies.map((p) => p.policyName)).not.toContain("self-grant");
  });

  it("the same body sent again answers the same 403 and records nothing new", async () => {
    const nobody = await newUser("resubmits", bare);
    const body = submitBody(bare, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "again", accounts: [] });
    const first = await rawPost(bare, "/public/v1/submit/create_wallet", body, { key: nobody.key });
    const count = (await sdkClient(bare).getActivities({ filterByStatus: ["ACTIVITY_STATUS_FAILED"], paginationOptions: { limit: "100" } })).activities.length;
    const second = await rawPost(bare, "/public/v1/submit/create_wallet", body, { key: nobody.key });
    expect([first.status, second.status]).toEqual([403, 403]);
    expect(second.json).toEqual(first.json);
    expect((await sdkClient(bare).getActivities({ filterByStatus: ["ACTIVITY_STATUS_FAILED"], paginationOptions: { limit: "100" } })).activities).toHaveLength(count);
  });

  it("a root-quorum-only activity by a non-root user is a 403 even when a policy allows everything", async () => {
    const error = (await sdkClient(emu, signer.key)
      .updateOrganizationName({ organizationName: "taken over" })
      .then(
        () => expect.unreachable("only the root quorum may rename the organization"),
        (e: unknown) => e,
      )) as RequestError;
    expect(error.code).toBe(7);
    expect(error.message).toMatch(/can only be approved by the root quorum/);
  });

  it("a consensus rejection still answers 200 with the activity REJECTED", async () => {
    const { userTagId } = await sdkClient(emu).createUserTag({ userTagName: "pair", userIds: [] });
    const a = await newUser("pair-a");
    const b = await newUser("pair-b");
    await sdkClient(emu).updateUserTag({ userTagId, addUserIds: [a.id, b.id], removeUserIds: [] });
    const { policyId } = await sdkClient(emu).createPolicy({ policyName: "two of the pair", effect: "EFFECT_ALLOW", consensus: `approvers.filter(user, user.tags.contains('${userTagId}')).count() >= 2`, condition: "activity.resource == 'WALLET'", notes: "" });
    const proposed = await sdkClient(emu, a.key).createWallet({ walletName: "vetoed", accounts: [] });
    expect(proposed.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const rejected = await sdkClient(emu, b.key).rejectActivity({ fingerprint: proposed.activity.fingerprint });
    expect(rejected.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect(rejected.activity.failure ?? null).toBeNull();
    await sdkClient(emu).deletePolicy({ policyId });
  });
});
