/**
 * Earn through @turnkey/sdk-server (and @turnkey/http for the rewards operations, which only it
 * carries) on a local chain: the vault catalog, a wrapper's deployment, deposits and withdrawals
 * signed by the wallet account (sponsored too), the client fee, the deposits switch, rewards,
 * the status queries, policy evaluation, bad input and the external-node 501. viem reading the
 * chain's RPC is the oracle; the expected yield is computed here from the vault's documented
 * formula (owed × ratePerSecond × elapsed / 1e18) and the wrapper's fee (bps of the yield).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPublicClient, http, parseAbi, parseEventLogs, type Hex } from "viem";
import type { RunningEmulator } from "../emulator/index.js";
import { advanceClock, createApiKeyUser, httpClient, refusal, sdkClient, startTestEmulator, storeCounts, violatedField } from "./support.js";
import { deliveries } from "./webhooks/support.js";
import { chainWatcher } from "../emulator/families/chains/watch.js";

const CAIP2 = "eip155:8453"; // chainCaip2 is an enum of mainnets in the contract
const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const FEE_WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const THIRD = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const PAYMASTER = "0x1417a74cF3150D464a3F58652Cc8035C52F4f7b7";
// The documented fixed addresses of the local DeFi set (docs/networks.md).
const TUSD = "0x5F23465BAFf78DC25B29B23D69A5284e8160429D";
const TRWD = "0x9df3D963D6A711ed43e90012D0D8804c00A94576";
const TUSD_VAULT = "0x0716aE2E36940F326008b0dedA19d8Fa598e30F3";
const WETH = "0x136E2680e3D1b7Bb12239A17843c7388ddF31ff4";
const WETH_VAULT = "0x1B80575ba294F36cf8e5d718f3061C27613f3938";
const DAY_MS = 86_400_000;

const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);
const vaultAbi = parseAbi(["function totalAssets() view returns (uint256)", "function totalSupply() view returns (uint256)", "function ratePerSecond() view returns (uint256)", "function balanceOf(address) view returns (uint256)"]);
const wrapperAbi = parseAbi([
  "function grossAssets() view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
  "function feeBps() view returns (uint256)",
  "function feeWallet() view returns (address)",
  "function vault() view returns (address)",
  "function depositsDisabled() view returns (bool)",
  "event FeesClaimed(address indexed feeWallet, uint256 assets)",
]);

let emu: RunningEmulator;
let wrapper: Hex;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu?.stop());

const chain = () => createPublicClient({ transport: http(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/rpc`) });
const tusdOf = (who: string) => chain().readContract({ address: TUSD, abi: erc20, functionName: "balanceOf", args: [who as Hex] });

/** Polls a get_*_status query until it leaves PENDING. */
async function settled<T extends { status: string }>(poll: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const s = await poll();
    if (s.status !== "PENDING") return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the request never settled");
}

describe("Earn on a local chain", () => {
  it("lists the local TUSD vault with its TVL and 5% APY", async () => {
    const { vaults = [], pageInfo } = await sdkClient(emu).listEarnVaults({ caip19: `${CAIP2}/erc20:${TUSD.toLowerCase()}` });
    expect(vaults).toHaveLength(1);
    const v = vaults[0]!;
    expect(v.vaultAddress).toBe(TUSD_VAULT);
    expect(v.apyPct).toBe("0.05");
    expect(v.enabled).toBe(false);
    expect(v.provider).toBe("EARN_PROVIDER_MORPHO");
    expect(v.tvl).toBe(String(await chain().readContract({ address: TUSD_VAULT, abi: vaultAbi, functionName: "totalAssets" })));
    expect(pageInfo?.hasNextPage).toBe(false);
    const weth = await sdkClient(emu).listEarnVaults({ caip19: `${CAIP2}/erc20:${WETH}` });
    expect(weth.vaults?.map((x) => [x.vaultAddress, x.apyPct, x.name])).toEqual([[WETH_VAULT, "0.03", "Emulator WETH Vault"]]);
  });

  it("deploys a wrapper over the vault, with the fee and fee wallet asked for", async () => {
    const client = sdkClient(emu);
    const r = await client.earnDeployWrapper({ vaultAddress: TUSD_VAULT, chainCaip2: CAIP2, clientFeeBps: "2000", clientFeeWallet: FEE_WALLET });
    wrapper = r.wrapperAddress as Hex;
    const s = await settled(() => client.getEarnDeployStatus({ deployRequestId: r.deployRequestId }));
    expect(s.status).toBe("COMPLETED");
    const receipt = await chain().getTransactionReceipt({ hash: s.deployTxHash as Hex });
    expect(receipt.contractAddress?.toLowerCase()).toBe(wrapper.toLowerCase());
    expect(await chain().readContract({ address: wrapper, abi: wrapperAbi, functionName: "feeBps" })).toBe(2000n);
    expect(await chain().readContract({ address: wrapper, abi: wrapperAbi, functionName: "feeWallet" })).toBe(FEE_WALLET);
    expect(await chain().readContract({ address: wrapper, abi: wrapperAbi, functionName: "vault" })).toBe(TUSD_VAULT);
    expect((await client.listEarnVaults({ caip19: `${CAIP2}/erc20:${TUSD}` })).vaults?.[0]?.enabled).toBe(true);
    // deployStatus is newer than the SDK's types (@turnkey/http 6.6.0 has it).
    const enabled = ((await client.listEarnEnabledVaults({})).enabledVaults ?? []) as (NonNullable<Awaited<ReturnType<typeof client.listEarnEnabledVaults>>["enabledVaults"]>[number] & { deployStatus?: string })[];
    expect(enabled.map((e) => [e.wrapperAddress, e.clientFeeBps, e.clientFeeWallet, e.apyPct, e.netApyPct, e.deployStatus])).toEqual([[wrapper, "2000", FEE_WALLET, "0.05", "0.04", "COMPLETED"]]);
    // A second wrapper over the same vault is refused, naming the field.
    const again = await refusal(client.earnDeployWrapper({ vaultAddress: TUSD_VAULT, chainCaip2: CAIP2, clientFeeBps: "100", clientFeeWallet: FEE_WALLET }));
    expect(violatedField(again)).toBe("parameters.vaultAddress");
  });

  it("a deposit, 30 days, and a withdrawal return the deposit plus the vault's yield less the wrapper's 20% fee", async () => {
    const client = sdkClient(emu);
    const deposit = 10_000_000_000n; // 10,000 TUSD
    const before = await tusdOf(FROM);
    const d = await client.earnDeposit({ wrapperAddress: wrapper, signWith: FROM, assets: deposit.toString(), chainCaip2: CAIP2 });
    const ds = await settled(() => client.getEarnDepositStatus({ depositRequestId: d.depositRequestId }));
    expect(ds.status).toBe("COMPLETED");
    expect(await tusdOf(FROM)).toBe(before - deposit);
    const depositBlock = (await chain().getTransactionReceipt({ hash: ds.depositTxHash as Hex })).blockNumber;
    const at1 = { blockNumber: depositBlock };
    const [t1, owed1, supply1, wrapperShares, gross1, rate] = await Promise.all([
      chain().getBlock(at1).then((b) => b.timestamp),
      chain().readContract({ address: TUSD_VAULT, abi: vaultAbi, functionName: "totalAssets", ...at1 }),
      chain().readContract({ address: TUSD_VAULT, abi: vaultAbi, functionName: "totalSupply", ...at1 }),
      chain().readContract({ address: TUSD_VAULT, abi: vaultAbi, functionName: "balanceOf", args: [wrapper], ...at1 }),
      chain().readContract({ address: wrapper, abi: wrapperAbi, functionName: "grossAssets", ...at1 }),
      chain().readContract({ address: TUSD_VAULT, abi: vaultAbi, functionName: "ratePerSecond" }),
    ]);
    expect(rate).toBe(5n * 10n ** 16n / 31_536_000n); // 5% a year, per second
    const [position] = (await client.listEarnPositions({ walletAddress: FROM })).positions ?? [];
    expect(position).toMatchObject({ wrapperAddress: wrapper, totalDeposited: deposit.toString(), totalWithdrawn: "0" });

    await advanceClock(emu, 30 * DAY_MS);
    const accrued = (await client.listEarnPositions({ walletAddress: FROM })).positions![0]!;
    expect(BigInt(accrued.currentValue!)).toBeGreaterThan(deposit);
    const fees = (await client.listEarnEnabledVaults({})).enabledVaults![0]!;
    expect(BigInt(fees.claimableClientFee!)).toBeGreaterThan(0n);

    const w = await client.earnWithdraw({ wrapperAddress: wrapper, signWith: FROM, chainCaip2: CAIP2, amountValue: "MAX" });
    const ws = await settled(() => client.getEarnWithdrawStatus({ withdrawRequestId: w.withdrawRequestId }));
    expect(ws.status).toBe("COMPLETED");
    const t2 = (await chain().getBlock({ blockNumber: (await chain().getTransactionReceipt({ hash: ws.withdrawTxHash as Hex })).blockNumber })).timestamp;
    // The clock moved 30 days; the chain's blocks had run a few seconds ahead of it (a block is a second past its parent at least).
    expect(Number(t2 - t1)).toBeGreaterThan(30 * 86_400 - 120);
    const received = (await tusdOf(FROM)) - (before - deposit);

    // The oracle: the vault's debt grew by owed × rate × elapsed; the wrapper's part of it is its
    // shares' value; 20% of its growth is the client's fee; the only depositor takes the rest.
    const owed2 = owed1 + (owed1 * rate * (t2 - t1)) / 10n ** 18n;
    const gross2 = (wrapperShares * owed2) / supply1;
    const fee = ((gross2 - gross1) * 2_000n) / 10_000n;
    expect(received).toBe(gross2 - fee);
    expect(received).toBeGreaterThan(deposit);
    // About 10,000 × 5% × 30/365 × 80% ≈ 32.9 TUSD of yield.
    expect(Number(received - deposit) / 1e6).toBeCloseTo(32.88, 1);
    const after = (await client.listEarnPositions({ walletAddress: FROM })).positions;
    expect(after).toEqual([]);

    // The client's fee goes to the fee wallet.
    const claimable = BigInt((await client.listEarnEnabledVaults({})).enabledVaults![0]!.claimableClientFee!);
    expect(claimable).toBeGreaterThanOrEqual(fee);
    const feeBefore = await tusdOf(FEE_WALLET);
    const c = await client.claimEarnFees({ wrapperAddress: wrapper });
    const cs = await settled(() => client.getClaimEarnFeesStatus({ claimRequestId: c.claimRequestId }));
    expect(cs.status).toBe("COMPLETED");
    const [claimed] = parseEventLogs({ abi: wrapperAbi, logs: (await chain().getTransactionReceipt({ hash: cs.claimTxHash as Hex })).logs, eventName: "FeesClaimed" });
    expect(claimed!.args.assets).toBeGreaterThanOrEqual(claimable);
    expect((await tusdOf(FEE_WALLET)) - feeBefore).toBe(claimed!.args.assets);
    expect(claimed!.args.assets - fee).toBeLessThan(10n); // the fee's own yield over the seconds since
  });

  it("earn_set_wrapper_state stops deposits (refused naming the field, nothing written) and starts them again", async () => {
    const client = sdkClient(emu);
    expect(await client.earnSetWrapperState({ wrapperAddress: wrapper, depositsDisabled: true })).toMatchObject({ wrapperAddress: wrapper, depositsDisabled: true });
    expect(await chain().readContract({ address: wrapper, abi: wrapperAbi, functionName: "depositsDisabled" })).toBe(true);
    await chainWatcher(emu.runtime)?.settle();
    const counts = storeCounts(emu);
    const refused = await refusal(client.earnDeposit({ wrapperAddress: wrapper, signWith: FROM, assets: "1000000", chainCaip2: CAIP2 }));
    expect(refused.code).toBe(3);
    expect(violatedField(refused)).toBe("parameters.wrapperAddress");
    expect(refused.message).toMatch(/deposits to wrapper .* are disabled/);
    expect(storeCounts(emu)).toEqual(counts);
    await client.earnSetWrapperState({ wrapperAddress: wrapper, depositsDisabled: false });
    expect(await chain().readContract({ address: wrapper, abi: wrapperAbi, functionName: "depositsDisabled" })).toBe(false);
  });

  it("a sponsored deposit is paid by the paymaster: the account's ether does not move; balances and balance webhooks show the movement", async () => {
    const client = sdkClient(emu);
    await client.createWebhookEndpoint({ name: "earn balances", url: "http://127.0.0.1:9/never-delivered", subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }] } as never);
    const eth = await chain().getBalance({ address: THIRD });
    const tusd = await tusdOf(THIRD);
    const d = await client.earnDeposit({ wrapperAddress: wrapper, signWith: THIRD, assets: "2500000000", chainCaip2: CAIP2, sponsor: true });
    const s = await settled(() => client.getEarnDepositStatus({ depositRequestId: d.depositRequestId }));
    expect(s, s.error).toMatchObject({ status: "COMPLETED" });
    expect((await chain().getTransaction({ hash: s.depositTxHash as Hex })).from.toLowerCase()).toBe(PAYMASTER.toLowerCase());
    expect(await chain().getBalance({ address: THIRD })).toBe(eth);
    expect(await tusdOf(THIRD)).toBe(tusd - 2_500_000_000n);
    expect(await chain().readContract({ address: wrapper, abi: wrapperAbi, functionName: "balanceOf", args: [THIRD] })).toBeGreaterThan(0n);
    // The wrapper's shares show in the account's balances.
    const { balances } = await client.getWalletAddressBalances({ address: THIRD, caip2: CAIP2 });
    expect(balances?.map((b) => b.caip19)).toContain(`${CAIP2}/erc20:${wrapper.toLowerCase()}`);
    const held = (await (await fetch(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/holdings/${THIRD}`)).json()) as { holdings: { symbol: string; balance: string }[] };
    expect(held.holdings.map((h) => h.symbol)).toEqual(["ETH", "TUSD", "eevTUSD"]);
    // The chain watcher reports the TUSD leaving the account and the wrapper's shares arriving.
    await vi.waitFor(
      async () => {
        const moves = (await deliveries(emu)).filter((d) => d.eventType === "BALANCE_CONFIRMED_UPDATES" && d.payload.msg.txHash === s.depositTxHash);
        expect(moves.map((d) => [d.payload.msg.operation, d.payload.msg.address, d.payload.msg.asset.symbol, d.payload.msg.asset.amount]).sort()).toEqual([
          ["deposit", THIRD, "eevTUSD", expect.any(String)],
          ["withdraw", THIRD, "TUSD", "2500000000"],
        ]);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("rewards accrue per share and second, and earn_claim_rewards mints them to the account", async () => {
    const client = sdkClient(emu);
    const tk = httpClient(emu);
    await advanceClock(emu, 10 * DAY_MS);
    const listed = await tk.listEarnRewards({ organizationId: emu.info.organizationId, walletAddress: THIRD, caip2: CAIP2 });
    const reward = listed.rewards![0]!;
    expect(reward).toMatchObject({ caip2: CAIP2, caip19: `${CAIP2}/erc20:${TRWD.toLowerCase()}`, symbol: "TRWD", decimals: 18, claimed: "0", pending: "0" });
    // 2,500 TUSD of shares for 10 days at 0.1 TRWD per TUSD-year: about 6.85 TRWD.
    expect(Number(BigInt(reward.claimable!) / 10n ** 12n) / 1e6).toBeCloseTo(6.849, 2);
    const act = await tk.earnClaimRewards({ type: "ACTIVITY_TYPE_EARN_CLAIM_REWARDS", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { signWith: THIRD, chainCaip2: CAIP2 } });
    const claimRequestId = (act.activity.result as { earnClaimRewardsResult: { claimRequestId: string } }).earnClaimRewardsResult.claimRequestId;
    const s = await settled(() => tk.getEarnClaimRewardsStatus({ organizationId: emu.info.organizationId, claimRequestId }));
    expect(s.status).toBe("COMPLETED");
    const got = await chain().readContract({ address: TRWD, abi: erc20, functionName: "balanceOf", args: [THIRD] });
    expect(got).toBeGreaterThanOrEqual(BigInt(reward.claimable!));
    const again = (await tk.listEarnRewards({ organizationId: emu.info.organizationId, walletAddress: THIRD })).rewards![0]!;
    expect(again.claimed).toBe(got.toString());
    void client;
  });

  it("a status is PENDING while the transaction waits for a block (automine off), then COMPLETED", async () => {
    const client = sdkClient(emu);
    const control = (path: string, body: unknown) => fetch(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await control("automine", { enabled: false })).status).toBe(200);
    try {
      const w = await client.earnWithdraw({ wrapperAddress: wrapper, signWith: THIRD, chainCaip2: CAIP2, amountValue: "1000000" });
      const pending = await client.getEarnWithdrawStatus({ withdrawRequestId: w.withdrawRequestId });
      expect(pending.status).toBe("PENDING");
      expect(await chain().getTransactionReceipt({ hash: pending.withdrawTxHash as Hex }).catch(() => undefined)).toBeUndefined();
      expect((await control("mine", {})).status).toBe(200);
      expect(await client.getEarnWithdrawStatus({ withdrawRequestId: w.withdrawRequestId })).toMatchObject({ status: "COMPLETED", withdrawTxHash: pending.withdrawTxHash });
      expect((await client.listEarnPositions({ walletAddress: THIRD })).positions?.[0]?.totalWithdrawn).toBe("1000000");
    } finally {
      await control("automine", { enabled: true });
    }
  });

  it("refuses bad input naming the field, and writes nothing", async () => {
    const client = sdkClient(emu);
    await chainWatcher(emu.runtime)?.settle(); // the balance events of the earlier tests are recorded first
    const counts = storeCounts(emu);
    const cases: [() => Promise<unknown>, string][] = [
      [() => client.earnDeposit({ wrapperAddress: wrapper, signWith: FROM, assets: "ten", chainCaip2: CAIP2 }), "parameters.assets"],
      [() => client.earnDeposit({ wrapperAddress: wrapper, signWith: FROM, assets: "1", chainCaip2: "eip155:1" }), "parameters.chainCaip2"],
      [() => client.earnDeposit({ wrapperAddress: TUSD_VAULT, signWith: FROM, assets: "1", chainCaip2: CAIP2 }), "parameters.wrapperAddress"],
      [() => client.earnDeposit({ wrapperAddress: wrapper, signWith: FROM, assets: (10n ** 30n).toString(), chainCaip2: CAIP2 }), "parameters.assets"],
      [() => client.earnWithdraw({ wrapperAddress: wrapper, signWith: FROM, chainCaip2: CAIP2, amountValue: "MAX" }), "parameters.amountValue"],
      [() => client.earnDeployWrapper({ vaultAddress: TUSD_VAULT, chainCaip2: CAIP2, clientFeeBps: "4001", clientFeeWallet: FEE_WALLET }), "parameters.clientFeeBps"],
      [() => client.earnDeployWrapper({ vaultAddress: TUSD_VAULT, chainCaip2: CAIP2, clientFeeBps: "10", clientFeeWallet: "0x000000000000000000000000000000000000dEaD" }), "parameters.clientFeeWallet"],
      [() => client.listEarnVaults({ caip19: `${CAIP2}/erc20:nope` }), "caip19"],
    ];
    for (const [call, field] of cases) {
      const e = await refusal(call());
      expect([e.code, violatedField(e)], e.message).toEqual([3, field]);
    }
    const after = storeCounts(emu);
    expect(Object.keys(after).filter((t) => after[t] !== counts[t]).map((t) => `${t}: ${counts[t]} -> ${after[t]}`)).toEqual([]);
    await expect(client.getEarnDepositStatus({ depositRequestId: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow(/no Earn deposit request/);
  });

  it("a deposit is decided by the organization's policies like any signing", async () => {
    const user = await createApiKeyUser(emu, "earn-bot");
    const bot = sdkClient(emu, user.key);
    const denied = await refusal(bot.earnDeposit({ wrapperAddress: wrapper, signWith: FROM, assets: "1000000", chainCaip2: CAIP2 }));
    expect(denied.code).toBe(7);
    await sdkClient(emu).createPolicy({ policyName: "earn deposits", effect: "EFFECT_ALLOW", consensus: `approvers.any(user, user.id == '${user.id}')`, condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && activity.params.wrapper_address == '" + wrapper + "'", notes: "" });
    const ok = await bot.earnDeposit({ wrapperAddress: wrapper, signWith: FROM, assets: "1000000", chainCaip2: CAIP2 });
    expect((await settled(() => bot.getEarnDepositStatus({ depositRequestId: ok.depositRequestId }))).status).toBe("COMPLETED");
  });
});

describe("Earn against an external node", () => {
  it("answers 501: there are no local vaults there", async () => {
    const ext = await startTestEmulator({ chains: { "eip155:1": "http://127.0.0.1:9" } });
    try {
      const e = await refusal(sdkClient(ext).listEarnVaults({ caip19: "eip155:1/erc20:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" }));
      expect(e.code).toBe(12);
      expect(e.message).toMatch(/external node http:\/\/127\.0\.0\.1:9, which has no local vaults or pools/);
    } finally {
      await ext.stop();
    }
  });
});
