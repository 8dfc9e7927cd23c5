/**
 * Tenant isolation, generated from the operation registry and the published contract: every
 * coordinator operation (query and activity, emulated or not) is sent
 *   - by a sub-organization's key to its parent (refused, except discovery and login, which
 *     happen in the caller's own sub-organization),
 *   - by a sub-organization's key to a sibling sub-organization (refused),
 *   - by the parent's key to a sub-organization (queries read; activities only where the
 *     parent may start them),
 * with a body the contract accepts, and a refusal must leave the store untouched. An activity
 * refused across organizations is the errors page's "organization mismatch" (errors.mdx:9,865);
 * a query, "request not authorized".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { coordinator } from "../contracts/index.js";
import { sampleValue } from "../contracts/sample.js";
import { registry } from "../emulator/families.js";
import { devKey, newP256KeyPair, rawPost, sdkClient, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const { entryFor } = registry;

// The refusals as the emulator documents them (README, tenant isolation), written here rather
// than imported, so that a change of wording in emulator/core/auth/access.ts shows up as a failure.
const SUB_ORG_CANNOT_REACH_PARENT = "request not authorized: a sub-organization's credential cannot read or act in its parent organization";
const mismatch = (target: string, voters: string) => `organization mismatch: request is targeting organization ("${target}"), but voters are in organization ("${voters}")`;
/** The documented answer to an activity whose voters are in another organization than its target. */
const isMismatch = (r: { status: number; json: { code?: number; message?: string; details?: { turnkeyErrorCode?: string }[] } }, target: string, voters: string): boolean =>
  r.status === 400 && r.json.code === 3 && r.json.message === mismatch(target, voters) && !!r.json.details?.some((d) => d.turnkeyErrorCode === "ORGANIZATION_MISMATCH");

const emu = useTestEmulator();
let parentId: string;
const subOrgs: { id: string; key: KeyPair; walletId: string; userId: string }[] = [];

beforeAll(async () => {
  parentId = emu.info.organizationId;
  for (const name of ["tenant a", "tenant b"]) {
    const key = newP256KeyPair();
    const r = await sdkClient(emu).createSubOrganization({
      subOrganizationName: name,
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: `${name} root`, userEmail: `${name.replace(" ", "-")}@example.com`, apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: `${name} wallet`, accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }] },
    });
    subOrgs.push({ id: r.subOrganizationId, key, walletId: r.wallet!.walletId, userId: r.rootUserIds![0]! });
  }
}, 60_000);

const writes = (): number => (emu.runtime.store.db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;

function bodyFor(path: string, organizationId: string): string {
  const op = coordinator[path]!;
  return JSON.stringify(sampleValue(op.request, { organizationId, timestampMs: String(Date.now()) }));
}

const operations = Object.entries(coordinator).filter(([, op]) => op.kind === "submit" || op.kind === "query");

describe("tenant isolation over every coordinator operation", () => {
  it("a sub-organization's key cannot read or act in its parent (only discovery and login cross, into the caller's own sub-org)", async () => {
    const [a] = subOrgs;
    const leaks: string[] = [];
    for (const [path, op] of operations) {
      const entry = entryFor(op.kind, op.name);
      const before = writes();
      const r = await rawPost(emu, path, bodyFor(path, parentId), { key: a!.key });
      if (entry && entry.kind !== "proxy" && entry.reach.servedInCallerOrg) {
        expect(r.json?.message ?? "", path).not.toBe(SUB_ORG_CANNOT_REACH_PARENT);
        expect(isMismatch(r, parentId, a!.id), path).toBe(false);
        if (op.name === "whoami") expect(r.json.organizationId).toBe(a!.id);
        continue;
      }
      const refused = op.kind === "submit" ? isMismatch(r, parentId, a!.id) : r.status === 403 && r.json.code === 7 && r.json.message === SUB_ORG_CANNOT_REACH_PARENT;
      if (!refused) leaks.push(`${path}: ${r.status} ${JSON.stringify(r.json).slice(0, 120)}`);
      if (writes() !== before) leaks.push(`${path}: wrote to the store`);
    }
    expect(leaks).toEqual([]);
  });

  it("a sub-organization's key cannot reach a sibling sub-organization", async () => {
    const [a, b] = subOrgs;
    const leaks: string[] = [];
    for (const [path] of operations) {
      const before = writes();
      const r = await rawPost(emu, path, bodyFor(path, b!.id), { key: a!.key });
      if (r.status !== 401 || r.json.code !== 16) leaks.push(`${path}: ${r.status} ${JSON.stringify(r.json).slice(0, 120)}`);
      if (writes() !== before) leaks.push(`${path}: wrote to the store`);
    }
    expect(leaks).toEqual([]);
  });

  it("the parent's key reads a sub-organization but acts there only to start its users' auth flows", async () => {
    const [a] = subOrgs;
    const wrong: string[] = [];
    for (const [path, op] of operations) {
      const entry = entryFor(op.kind, op.name);
      const before = writes();
      const r = await rawPost(emu, path, bodyFor(path, a!.id), { key: devKey(emu) });
      const refusedAsParent = isMismatch(r, a!.id, parentId);
      if (op.kind === "query") {
        if (r.status === 401 || r.status === 403) wrong.push(`${path}: a parent read was refused: ${r.status} ${r.json.message}`);
      } else if (entry?.kind === "submit" && entry.reach.parentMayInitiate) {
        if (refusedAsParent) wrong.push(`${path}: the parent may start this auth flow`);
      } else {
        if (!refusedAsParent) wrong.push(`${path}: a parent write was not refused: ${r.status} ${JSON.stringify(r.json).slice(0, 120)}`);
        if (writes() !== before) wrong.push(`${path}: wrote to the store`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("inside its own organization a sub-org key cannot name another organization's resources", async () => {
    const [a, b] = subOrgs;
    const parentActivity = (await sdkClient(emu).getActivities({ paginationOptions: { limit: "1" } })).activities[0]!.id;
    const cases: [string, Record<string, unknown>][] = [
      ["/public/v1/query/get_wallet", { walletId: emu.info.walletId }],
      ["/public/v1/query/get_wallet", { walletId: b!.walletId }],
      ["/public/v1/query/get_user", { userId: emu.info.rootUserId }],
      ["/public/v1/query/get_user", { userId: b!.userId }],
      ["/public/v1/query/get_activity", { activityId: parentActivity }],
      ["/public/v1/query/get_policy_evaluations", { activityId: parentActivity }],
      ["/public/v1/query/get_wallet_account", { walletId: emu.info.walletId, address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }],
    ];
    for (const [path, fields] of cases) {
      const r = await rawPost(emu, path, JSON.stringify({ organizationId: a!.id, ...fields }), { key: a!.key });
      expect([r.status, r.json.code], `${path} ${JSON.stringify(fields)}`).toEqual([404, 5]);
    }
    const sign = await rawPost(
      emu,
      "/public/v1/submit/sign_raw_payload",
      JSON.stringify({
        type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
        timestampMs: String(Date.now()),
        organizationId: a!.id,
        parameters: { signWith: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", payload: "00".repeat(32), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" },
      }),
      { key: a!.key },
    );
    expect(sign.status, JSON.stringify(sign.json)).toBeGreaterThanOrEqual(400);
  });
});
