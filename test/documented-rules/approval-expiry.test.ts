/**
 * Approvals expire 24 hours (emulated) after the submission that opened their window; the
 * activity stays CONSENSUS_NEEDED and takes fresh approvals (tkhq/docs
 * api-reference/activities/overview.mdx:19; docs/activity-lifecycle.md "Approval expiry").
 */
import { describe, expect, it } from "vitest";
import { advanceClock, newP256KeyPair, sdkClient } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const HOUR = 60 * 60 * 1000;

describe("approval expiry (2-of-2 root quorum)", () => {
  const e = useTestEmulator();
  const second = newP256KeyPair();
  let secondId = "";

  it("sets up a 2-of-2 root quorum", async () => {
    const root = sdkClient(e);
    const { userIds } = await root.createUsers({ users: [{ userName: "root-2", apiKeys: [{ apiKeyName: "k", publicKey: second.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    secondId = userIds[0]!;
    await root.updateRootQuorum({ threshold: 2, userIds: [e.info.rootUserId, secondId] });
  });

  it("an approval within 24 hours completes the activity", async () => {
    const proposal = await sdkClient(e).createWallet({ walletName: "approved-in-time", accounts: [] });
    expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    await advanceClock(e, 23 * HOUR);
    const approved = await sdkClient(e, second).approveActivity({ fingerprint: proposal.activity.fingerprint });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("an approval 25 hours later does not complete it: the proposer's approval expired", async () => {
    const root = sdkClient(e);
    const proposal = await root.createWallet({ walletName: "approved-late", accounts: [] });
    expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    await advanceClock(e, 25 * HOUR);

    const late = await sdkClient(e, second).approveActivity({ fingerprint: proposal.activity.fingerprint });
    expect(late.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect((await root.getWallets({})).wallets.map((w) => w.walletName)).not.toContain("approved-late");

    // The control API's view says so, and lets the proposer vote again.
    const view = await (await fetch(`${e.url}/emulator/v1/activities/${proposal.activity.id}`)).json();
    expect(view.approvalWindow).toMatchObject({ expired: false });
    expect(view.expiredVoteIds).toEqual([proposal.activity.votes[0]!.id]);
    expect(view.voters.find((v: { userId: string }) => v.userId === e.info.rootUserId).vote).toBeNull();

    // Re-approved by the proposer within the new window, it completes.
    const again = await root.approveActivity({ fingerprint: proposal.activity.fingerprint });
    expect(again.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await root.getWallets({})).wallets.map((w) => w.walletName)).toContain("approved-late");
  });

  it("a lapsed window shows as expired in the control API until someone approves again", async () => {
    const proposal = await sdkClient(e).createWallet({ walletName: "left-waiting", accounts: [] });
    await advanceClock(e, 24 * HOUR);
    const view = await (await fetch(`${e.url}/emulator/v1/activities/${proposal.activity.id}`)).json();
    expect(view.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(view.approvalWindow.expired).toBe(true);
    expect(Date.parse(view.approvalWindow.expiresAt) - Date.parse(view.approvalWindow.openedAt)).toBe(24 * HOUR);
  });
});
