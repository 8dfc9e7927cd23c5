/**
 * The coverage of a run: `startEmulator({ coverageOut })` (the CLI's --coverage-out) writes, when
 * it stops, the operations and activity versions called with their outcomes, each policy's
 * outcomes and the published operations never called, as JSON and a readable summary. Checked
 * against what this file sent through @turnkey/sdk-server and raw stamped requests, and against the
 * service's own account of each activity's policy evaluations (get_policy_evaluations).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, describe, expect, it } from "vitest";
import { coordinator } from "../contracts/index.js";
import { sampleValue } from "../contracts/sample.js";
import { createApiKeyUser, rawPost, sdkClient, startCliEmulator, startTestEmulator, submitBody } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "emu-coverage-"));
const out = join(dir, "turnkey-coverage.json");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Report = {
  totals: { published: number; called: number; calls: number; policiesEvaluated: number };
  operations: { surface: string; kind: string; name: string; path: string; calls: number; outcomes: Record<string, number>; versions: { activityType: string; calls: number; outcomes: Record<string, number> }[] }[];
  policies: { policyId: string; policyName: string | null; evaluations: number; outcomes: Record<string, number> }[];
  neverCalled: { name: string; path: string; emulated: boolean }[];
};

describe("coverage of a run", () => {
  it("lists the operations, versions and outcomes it was sent, each policy's outcomes, and what it never called", async () => {
    const emu = await startTestEmulator({ coverageOut: out });
    const root = sdkClient(emu);
    let twoSigners = "";
    let denyDeletes = "";
    let activityCount: number;
    try {
      // Two signers who must both approve a wallet, and a policy that denies deletes.
      const { userTagId } = await root.createUserTag({ userTagName: "signers", userIds: [] }); // create_user_tag: completed
      const a = await createApiKeyUser(emu, "signer a"); // create_users: completed
      const b = await createApiKeyUser(emu, "signer b"); // create_users: completed
      await root.updateUserTag({ userTagId, addUserIds: [a.id, b.id], removeUserIds: [] }); // update_user_tag: completed
      ({ policyId: twoSigners } = await root.createPolicy({ policyName: "two signers", effect: "EFFECT_ALLOW", consensus: `approvers.filter(user, user.tags.contains('${userTagId}')).count() >= 2`, condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'", notes: "" }));
      ({ policyId: denyDeletes } = await root.createPolicy({ policyName: "no deletes", effect: "EFFECT_DENY", condition: "activity.action == 'DELETE'", notes: "" })); // create_policy x2: completed

      const proposed = await sdkClient(emu, a.key).createWallet({ walletName: "co-signed", accounts: [] }); // create_wallet: consensus
      expect(proposed.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      const approved = await sdkClient(emu, b.key).approveActivity({ fingerprint: proposed.activity.fingerprint }); // approve_activity: completed
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const walletId = (approved.activity.result as { createWalletResult: { walletId: string } }).createWalletResult.walletId;
      await expect(sdkClient(emu, a.key).deleteWallets({ walletIds: [walletId] })).rejects.toMatchObject({ code: 7 }); // delete_wallets: denied
      await expect(root.createWallet({ walletName: "", accounts: [] })).rejects.toThrow(/walletName/); // create_wallet: failed
      await sdkClient(emu, a.key).getWhoami({}); // whoami: completed
      await root.getWhoami({}); // whoami: completed
      // An older version, read as its own activity type.
      const v1 = await rawPost(emu, "/public/v1/submit/create_private_keys", submitBody(emu, "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS", { privateKeys: [{ privateKeyName: "v1", curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: [] }] }));
      expect(v1.status).toBe(200);
      await root.createPrivateKeys({ privateKeys: [{ privateKeyName: "v2", curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: [] }] }); // create_private_keys V2: completed
      // An operation the emulator answers 501, and the auth proxy.
      const reEncrypt = "/public/v1/submit/re_encrypt_tvc_quorum_key_share";
      const notEmulated = await rawPost(emu, reEncrypt, JSON.stringify(sampleValue(coordinator[reEncrypt]!.request, { organizationId: emu.info.organizationId, timestampMs: String(Date.now()) })));
      expect(notEmulated.status).toBe(501);
      const proxy = await fetch(`${emu.url}/v1/otp_init`, { method: "POST", headers: { "content-type": "application/json", "X-Auth-Proxy-Config-ID": emu.info.authProxyConfigId! }, body: JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: "c@example.com" }) });
      expect(proxy.status).toBe(200);

      // The service's own account of the policies' outcomes, activity by activity.
      const { activities } = await root.getActivities({ paginationOptions: { limit: "100" } });
      activityCount = activities.length;
      const expected = new Map<string, Record<string, number>>();
      for (const act of activities) {
        for (const ev of (await root.getPolicyEvaluations({ activityId: act.id })).policyEvaluations) {
          for (const e of ev.policyEvaluations) {
            const [policyId, outcome] = [e.policyId!, e.outcome!];
            const counts = expected.get(policyId) ?? {};
            counts[outcome] = (counts[outcome] ?? 0) + 1;
            expected.set(policyId, counts);
          }
        }
      }
      // The live report answers the same as the file will.
      const live = (await (await fetch(`${emu.url}/emulator/v1/coverage`)).json()) as Report;
      expect(live.policies.map((p) => [p.policyId, p.outcomes])).toEqual([...expected].sort(([x], [y]) => (x < y ? -1 : 1)));
    } finally {
      await emu.stop();
    }

    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    const op = (name: string) => report.operations.find((o) => o.name === name);
    expect(op("create_wallet")).toMatchObject({ calls: 2, outcomes: { consensus: 1, failed: 1 }, versions: [{ activityType: "ACTIVITY_TYPE_CREATE_WALLET", calls: 2, outcomes: { consensus: 1, failed: 1 } }] });
    expect(op("approve_activity")).toMatchObject({ calls: 1, outcomes: { completed: 1 } });
    expect(op("delete_wallets")).toMatchObject({ calls: 1, outcomes: { denied: 1 } });
    expect(op("create_users")).toMatchObject({ calls: 2, outcomes: { completed: 2 } });
    expect(op("create_policy")).toMatchObject({ calls: 2, outcomes: { completed: 2 } });
    expect(op("whoami")).toMatchObject({ kind: "query", calls: 2, outcomes: { completed: 2 }, versions: [] });
    expect(op("create_private_keys")!.versions).toEqual([
      { activityType: "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS", calls: 1, outcomes: { completed: 1 } },
      { activityType: "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2", calls: 1, outcomes: { completed: 1 } },
    ]);
    expect(op("re_encrypt_tvc_quorum_key_share")).toMatchObject({ calls: 1, outcomes: { unimplemented: 1 } });
    expect(op("otp_init")).toMatchObject({ surface: "auth proxy", kind: "proxy", path: "/v1/otp_init", calls: 1, outcomes: { completed: 1 } });
    // What the checks above asked too: the SDK polled the activity awaiting consensus (get_activity), then the oracle's queries.
    expect(report.operations.map((o) => o.name).sort()).toEqual(
      ["approve_activity", "create_policy", "create_private_keys", "create_user_tag", "create_users", "create_wallet", "delete_wallets", "get_activity", "get_policy_evaluations", "list_activities", "otp_init", "re_encrypt_tvc_quorum_key_share", "update_user_tag", "whoami"].sort(),
    );
    expect(op("list_activities")).toMatchObject({ calls: 1, outcomes: { completed: 1 } });
    expect(op("get_policy_evaluations")).toMatchObject({ calls: activityCount, outcomes: { completed: activityCount } });
    expect(report.totals).toMatchObject({ called: 14, calls: 16 + 1 + activityCount + op("get_activity")!.calls });

    // Both policies, by name, with the outcomes the engine gave them.
    expect(report.policies.find((p) => p.policyId === twoSigners)).toMatchObject({ policyName: "two signers", outcomes: { OUTCOME_REQUIRES_CONSENSUS: 1, OUTCOME_ALLOW: 1 } });
    expect(report.policies.find((p) => p.policyId === denyDeletes)).toMatchObject({ policyName: "no deletes", outcomes: { OUTCOME_DENY_EXPLICIT: 1 } });

    // Every published operation is either called or listed as never called.
    expect(report.totals.published).toBe(report.operations.length + report.neverCalled.length);
    expect(report.neverCalled.map((p) => p.name)).toEqual(expect.arrayContaining(["sign_transaction", "get_wallet"]));
    expect(report.neverCalled.map((p) => p.name)).not.toContain("create_wallet");

    const summary = readFileSync(join(dir, "turnkey-coverage.txt"), "utf8");
    expect(summary.split("\n")[0]).toBe(`Turnkey emulator coverage: 14 of ${report.totals.published} published operations called (${((1400 / report.totals.published)).toFixed(1)}%), ${report.totals.calls} calls`);
    expect(summary).toMatch(/^ +2 +0 +1 +0 +1 +0 +submit\/create_wallet {2}\(ACTIVITY_TYPE_CREATE_WALLET\)$/m);
    expect(summary).toContain("  two signers (");
    expect(summary).toMatch(/^Never called: \d+ published operations$/m);
  }, 60_000);

  it("`emulator start --coverage-out FILE` writes the report and its summary when stopped", async () => {
    const file = join(dir, "cli", "coverage.json");
    const { child, url, out: banner } = await startCliEmulator(["--port", "0", "--coverage-out", file], 60_000);
    const printed = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(banner)![1]!;
    await new Turnkey({ apiBaseUrl: url, defaultOrganizationId: printed("Organization"), apiPublicKey: printed("API public key"), apiPrivateKey: printed("API private key") }).apiClient().getWhoami({});
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    const report = JSON.parse(readFileSync(file, "utf8")) as Report;
    expect(report.operations.map((o) => [o.name, o.calls, o.outcomes])).toEqual([["whoami", 1, { completed: 1 }]]);
    expect(readFileSync(join(dir, "cli", "coverage.txt"), "utf8")).toMatch(/^Turnkey emulator coverage: 1 of \d+ published operations called/);
  }, 60_000);
});
