/**
 * Earn queries (docs/earn.md), read from the local DeFi set on the chain (emulator/families/chains/defi/):
 * the vault catalog with live TVL and APY, the organization's wrappers (deposits, fee, switch),
 * a wallet's positions and rewards, and the status of each Earn request, which follows its
 * transaction (PENDING until a block holds it, then COMPLETED or FAILED with the revert reason).
 */
import type { Hex } from "viem";
import { invalidArgument, notFound } from "../../core/errors.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import type { Networks } from "../chains/index.js";
import type { EvmChain } from "../chains/index.js";
import type { EarnRequestKind, EarnWrapperRow } from "./repository.js";
import type { LocalVault } from "../chains/defi/index.js";
import { displayAmount, parseCaip19, tokenCaip19 } from "../chains/index.js";
import { formatUsd, usdMicros } from "../chains/index.js";
import { quote } from "../../core/input-error.js";
import { pageWithInfo, type PaginationOptions } from "../../core/vocabulary/pagination.js";
import { checkEvmAddress } from "../chains/index.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { requireNetworks } from "../chains/index.js";

const defi = () => import("./defi.js");

/** Every local vault is an ERC-4626 vault with a curator, as Morpho's are (UNCONFIRMED(earn-catalog) in docs/earn.md). */
const PROVIDER = "EARN_PROVIDER_MORPHO";
const CURATOR = "Turnkey Emulator";

const ownerOf = (ctx: QueryContext) => ctx.org.parentId ?? ctx.org.id;

const networksOf = (ctx: QueryContext, field: string): Networks => requireNetworks(ctx.rt, field);

/** `{usd, crypto}` of an amount of a local asset (USD at the emulator's reference prices). */
function shown(amount: bigint, asset: { symbol: string; decimals: number }) {
  return { usd: formatUsd(usdMicros(asset.symbol, amount, asset.decimals)), crypto: displayAmount(amount, asset.decimals) };
}

/** An Earn asset: a CAIP-19 id (families/chains/assets.ts parses it) of an EVM chain, that chain resolved, and its token unless native. */
function earnAsset(networks: Networks, caip19: string, field: string): { caip2: string; token?: string } {
  const asset = parseCaip19(caip19, field);
  if (asset.namespace !== "eip155") throw invalidArgument(`${field} must be a CAIP-19 asset id of an EVM chain (eip155:<chain id>/erc20:<token address>), got ${quote(caip19)}`, field);
  return { caip2: networks.resolve(asset.caip2, field), ...(asset.native ? {} : { token: asset.token }) };
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const providerMatches = (provider: string | undefined) => !provider || provider === "EARN_PROVIDER_UNSPECIFIED" || provider === PROVIDER;

/** list_earn_vaults: the local vaults of an asset, by USD TVL, with whether the organization enabled them. */
async function listVaults(ctx: QueryContext, body: { caip19: string; provider?: string; paginationOptions?: PaginationOptions }) {
  const d = await defi();
  const networks = networksOf(ctx, "caip19");
  const { caip2, token } = earnAsset(networks, body.caip19, "caip19");
  const chain = await networks.defi(caip2, "caip19");
  const vaults = d.LOCAL_VAULTS.filter((v) => token !== undefined && sameAddress(v.asset.address, token) && providerMatches(body.provider));
  const rows = await Promise.all(
    vaults.map(async (v) => {
      const tvl = await d.vaultTvl(chain, v.vault);
      return {
        usd: usdMicros(v.asset.symbol, tvl, v.asset.decimals),
        item: {
          vaultAddress: v.vault,
          provider: PROVIDER,
          caip19: tokenCaip19(caip2, v.asset.address),
          tvl: tvl.toString(),
          apyPct: d.apyOf(v.ratePerSecond),
          enabled: !!ctx.rt.store.earnWrappers.byVault(ownerOf(ctx), caip2, v.vault),
          display: shown(tvl, v.asset),
          name: v.name,
          curator: CURATOR,
          liquidity: tvl.toString(),
          liquidityDisplay: shown(tvl, v.asset),
        },
      };
    }),
  );
  rows.sort((a, b) => (a.usd === b.usd ? 0 : a.usd > b.usd ? -1 : 1));
  const page = pageWithInfo(
    rows.map((r) => r.item),
    (v) => v.vaultAddress,
    body.paginationOptions,
  );
  return { vaults: page.items, pageInfo: page.pageInfo };
}

/** The wrapper's chain (its local DeFi deployed) and vault. */
async function wrapperContext(ctx: QueryContext, row: EarnWrapperRow): Promise<{ chain: EvmChain; vault: LocalVault }> {
  const d = await defi();
  return { chain: await networksOf(ctx, "organizationId").defi(row.caip2), vault: d.localVault(row.vaultAddress)! };
}

/** What a request's transaction says now: PENDING, COMPLETED or FAILED (with the chain's reason). */
async function statusOf(ctx: QueryContext, caip2: string, txHash: string): Promise<{ status: "PENDING" | "COMPLETED" | "FAILED"; error?: string }> {
  const chain = await networksOf(ctx, "organizationId").get(caip2);
  const s = await chain.getTransactionStatus(txHash);
  if (s.status === "included") return { status: "COMPLETED" };
  if (s.status === "failed") return { status: "FAILED", error: s.error.message };
  if (s.status === "unknown") return { status: "FAILED", error: `${caip2} does not know transaction ${txHash} (the chain was reset)` };
  return { status: "PENDING" };
}

/** list_earn_enabled_vaults: the organization's wrappers with their deposits, APY (gross and net of the fee) and switch. */
async function listEnabledVaults(ctx: QueryContext, body: { provider?: string; caip19?: string }) {
  const d = await defi();
  const networks = networksOf(ctx, "caip19");
  const only = body.caip19 ? earnAsset(networks, body.caip19, "caip19") : undefined;
  const parent = !ctx.org.parentId;
  const out: Record<string, unknown>[] = [];
  for (const row of ctx.rt.store.earnWrappers.list(ownerOf(ctx))) {
    if (!providerMatches(body.provider)) continue;
    const vaultOfRow = d.localVault(row.vaultAddress)!;
    if (only && (only.caip2 !== row.caip2 || !only.token || !sameAddress(only.token, vaultOfRow.asset.address))) continue;
    const { chain, vault } = await wrapperContext(ctx, row);
    const deploy = await statusOf(ctx, row.caip2, (ctx.rt.store.earnRequests.get(row.orgId, row.id, "deploy") ?? { txHash: "" }).txHash);
    const live = deploy.status === "COMPLETED" ? await d.wrapperState(chain, row.wrapperAddress as Hex) : { totalAssets: 0n, depositsDisabled: false, claimableFees: 0n };
    const tvl = await d.vaultTvl(chain, vault.vault);
    out.push({
      vaultAddress: row.vaultAddress,
      wrapperAddress: row.wrapperAddress,
      provider: PROVIDER,
      caip19: tokenCaip19(row.caip2, vault.asset.address),
      apyPct: d.apyOf(vault.ratePerSecond),
      totalDeposited: live.totalAssets.toString(),
      display: shown(live.totalAssets, vault.asset),
      netApyPct: d.apyOf(vault.ratePerSecond, 10_000n - BigInt(row.clientFeeBps)),
      clientFeeBps: String(row.clientFeeBps),
      depositsDisabled: live.depositsDisabled,
      name: vault.name,
      curator: CURATOR,
      // The client's fee and fee wallet are the parent organization's business (documented: unset for a sub-organization).
      ...(parent ? { claimableClientFee: live.claimableFees.toString(), claimableClientFeeDisplay: shown(live.claimableFees, vault.asset), clientFeeWallet: row.clientFeeWallet } : {}),
      liquidity: tvl.toString(),
      liquidityDisplay: shown(tvl, vault.asset),
      deployStatus: deploy.status,
      deployRequestId: row.id,
      ...(deploy.error ? { deployError: deploy.error } : {}),
    });
  }
  return { enabledVaults: out };
}

/** list_earn_positions: the wallet's positions (shares held) in the organization's wrappers. */
async function listPositions(ctx: QueryContext, body: { walletAddress: string }) {
  const d = await defi();
  const holder = checkEvmAddress(body.walletAddress, "walletAddress");
  const out: Record<string, unknown>[] = [];
  for (const row of ctx.rt.store.earnWrappers.list(ownerOf(ctx))) {
    const { chain, vault } = await wrapperContext(ctx, row);
    if (!(await d.isDeployed(chain, row.wrapperAddress as Hex))) continue;
    const p = await d.positionOf(chain, row.wrapperAddress as Hex, holder);
    if (p.shares === 0n) continue;
    const [value, deposited, withdrawn] = [p.currentValue, p.totalDeposited, p.totalWithdrawn].map((n) => shown(n, vault.asset)) as [ReturnType<typeof shown>, ReturnType<typeof shown>, ReturnType<typeof shown>];
    out.push({
      vaultAddress: row.vaultAddress,
      wrapperAddress: row.wrapperAddress,
      provider: PROVIDER,
      caip19: tokenCaip19(row.caip2, vault.asset.address),
      currentValue: p.currentValue.toString(),
      totalDeposited: p.totalDeposited.toString(),
      totalWithdrawn: p.totalWithdrawn.toString(),
      display: {
        currentValueUsd: value.usd,
        totalDepositedUsd: deposited.usd,
        totalWithdrawnUsd: withdrawn.usd,
        currentValueCrypto: value.crypto,
        totalDepositedCrypto: deposited.crypto,
        totalWithdrawnCrypto: withdrawn.crypto,
      },
      depositsDisabled: (await d.wrapperState(chain, row.wrapperAddress as Hex)).depositsDisabled,
    });
  }
  return { positions: out };
}

/** list_earn_rewards: per chain, the reward token the wallet may claim from the organization's wrappers, and has claimed. */
async function listRewards(ctx: QueryContext, body: { walletAddress: string; caip2?: string }) {
  const d = await defi();
  const holder = checkEvmAddress(body.walletAddress, "walletAddress");
  const only = body.caip2 ? networksOf(ctx, "caip2").resolve(body.caip2, "caip2") : undefined;
  const perChain = new Map<string, { claimable: bigint; claimed: bigint }>();
  for (const row of ctx.rt.store.earnWrappers.list(ownerOf(ctx), only)) {
    const { chain } = await wrapperContext(ctx, row);
    if (!(await d.isDeployed(chain, row.wrapperAddress as Hex))) continue;
    const r = await d.rewardsOf(chain, row.wrapperAddress as Hex, holder);
    const sum = perChain.get(row.caip2) ?? { claimable: 0n, claimed: 0n };
    perChain.set(row.caip2, { claimable: sum.claimable + r.claimable, claimed: sum.claimed + r.claimed });
  }
  const token = d.REWARD_TOKEN;
  return {
    rewards: [...perChain]
      .filter(([, r]) => r.claimable > 0n || r.claimed > 0n)
      .map(([caip2, r]) => {
        const [claimable, claimed, pending] = [shown(r.claimable, token), shown(r.claimed, token), shown(0n, token)];
        return {
          caip2,
          caip19: tokenCaip19(caip2, token.address),
          symbol: token.symbol,
          decimals: token.decimals,
          claimable: r.claimable.toString(),
          claimed: r.claimed.toString(),
          // Local rewards are claimable as they accrue: nothing waits on a distribution.
          pending: "0",
          display: { claimableUsd: claimable.usd, claimableCrypto: claimable.crypto, claimedUsd: claimed.usd, claimedCrypto: claimed.crypto, pendingUsd: pending.usd, pendingCrypto: pending.crypto },
        };
      }),
  };
}

/** A get_*_status query: the request's transaction, followed on its chain. */
async function requestStatus(ctx: QueryContext, id: string, kind: EarnRequestKind, hashField: string) {
  const row = ctx.rt.store.earnRequests.get(ctx.org.id, id, kind);
  if (!row) throw notFound(`no Earn ${kind.replace("_", " ")} request ${id} in organization ${ctx.org.id}`);
  const s = await statusOf(ctx, row.caip2, row.txHash);
  return { status: s.status, [hashField]: row.txHash, ...(s.error ? { error: s.error } : {}) };
}

const cast = (p: Promise<Record<string, unknown>>) => p as unknown as Record<string, unknown>;

export const earnQueryOperations = [
  defineQuery("list_earn_vaults", { run: (ctx, body) => cast(listVaults(ctx, body)) }),
  defineQuery("list_earn_enabled_vaults", { run: (ctx, body) => cast(listEnabledVaults(ctx, body)) }),
  defineQuery("list_earn_positions", { run: (ctx, body) => cast(listPositions(ctx, body)) }),
  defineQuery("list_earn_rewards", { run: (ctx, body) => cast(listRewards(ctx, body)) }),
  defineQuery("get_earn_deploy_status", { run: (ctx, body) => cast(requestStatus(ctx, body.deployRequestId, "deploy", "deployTxHash")) }),
  defineQuery("get_earn_deposit_status", { run: (ctx, body) => cast(requestStatus(ctx, body.depositRequestId, "deposit", "depositTxHash")) }),
  defineQuery("get_earn_withdraw_status", { run: (ctx, body) => cast(requestStatus(ctx, body.withdrawRequestId, "withdraw", "withdrawTxHash")) }),
  defineQuery("get_claim_earn_fees_status", { run: (ctx, body) => cast(requestStatus(ctx, body.claimRequestId, "claim_fees", "claimTxHash")) }),
  defineQuery("get_earn_claim_rewards_status", { run: (ctx, body) => cast(requestStatus(ctx, body.claimRequestId, "claim_rewards", "claimTxHash")) }),
];
