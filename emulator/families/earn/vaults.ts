/**
 * The local yield vaults and Earn wrappers read from the chain: a vault's TVL and APY, a wrapper's
 * state (deposits switch, fee, claimable fee, deposits), a holder's position and rewards, and the
 * calldata the Earn operations send.
 */
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Hex } from "viem";
import type { EvmChain } from "../chains/index.js";
import { EARN_WRAPPER_ABI, EARN_WRAPPER_BYTECODE, YIELD_VAULT_ABI, DEFI_OPERATOR_ADDRESS, LOCAL_VAULTS, REWARD_TOKEN, type LocalVault } from "../chains/defi/index.js";

const SECONDS_PER_YEAR = 31_536_000n;

/** The local vault at `address`, or undefined. */
export function localVault(address: string): LocalVault | undefined {
  return LOCAL_VAULTS.find((v) => v.vault.toLowerCase() === address.toLowerCase());
}

/**
 * The yearly rate of a vault as a decimal fraction ("0.05"): ratePerSecond × seconds a year. The
 * vault pays simple interest between interactions and compounds at each, so this is its APR and,
 * compounded yearly, its APY. `keptBps` scales it (10,000 less a fee's bps: the net rate).
 */
export function apyOf(ratePerSecond: bigint, keptBps = 10_000n): string {
  // 1e18 = 100%; keptBps: what is left after a fee. Rounded to 6 places (the per-second rate is the yearly one rounded down).
  const scaled = (ratePerSecond * SECONDS_PER_YEAR * keptBps) / 10_000n + 5n * 10n ** 11n;
  const whole = scaled / 10n ** 18n;
  const frac = (scaled % 10n ** 18n).toString().padStart(18, "0").slice(0, 6).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}

type ViewName = "totalAssets" | "totalSupply" | "depositsDisabled" | "feesOwed" | "claimableFees" | "feeBps" | "feeWallet" | "vault" | "totalFeesClaimed";

async function view<T>(chain: EvmChain, abi: typeof YIELD_VAULT_ABI | typeof EARN_WRAPPER_ABI, to: Hex, functionName: string, args: readonly unknown[] = [], blockTag = "latest"): Promise<T> {
  const data = encodeFunctionData({ abi, functionName, args } as never);
  const out = await chain.call({ to, data }, blockTag);
  return decodeFunctionResult({ abi, functionName, data: out } as never) as T;
}

export const vaultView = <T>(chain: EvmChain, vault: Hex, fn: "totalAssets" | "reserve" | "totalSupply" | "convertToAssets" | "balanceOf", args: readonly unknown[] = []) =>
  view<T>(chain, YIELD_VAULT_ABI, vault, fn, args);

export const wrapperView = <T>(chain: EvmChain, wrapper: Hex, fn: ViewName | "balanceOf" | "convertToAssets" | "maxWithdraw" | "earnedRewards" | "rewardsClaimed", args: readonly unknown[] = []) =>
  view<T>(chain, EARN_WRAPPER_ABI, wrapper, fn, args);

/** Creation data of a wrapper over `vault` owned by the operator (the service's side of the wrapper). */
export function wrapperDeployData(vault: LocalVault, feeWallet: Hex, feeBps: bigint): Hex {
  return encodeDeployData({
    abi: EARN_WRAPPER_ABI,
    bytecode: EARN_WRAPPER_BYTECODE,
    args: [vault.vault, DEFI_OPERATOR_ADDRESS, feeWallet, feeBps, REWARD_TOKEN.address, vault.rewardRate, `Earn ${vault.name}`, `e${vault.symbol}`, vault.asset.decimals],
  });
}

export const wrapperCalldata = {
  deposit: (assets: bigint, receiver: Hex) => encodeFunctionData({ abi: EARN_WRAPPER_ABI, functionName: "deposit", args: [assets, receiver] }),
  withdraw: (assets: bigint, receiver: Hex, owner: Hex) => encodeFunctionData({ abi: EARN_WRAPPER_ABI, functionName: "withdraw", args: [assets, receiver, owner] }),
  redeem: (shares: bigint, receiver: Hex, owner: Hex) => encodeFunctionData({ abi: EARN_WRAPPER_ABI, functionName: "redeem", args: [shares, receiver, owner] }),
  claimFees: () => encodeFunctionData({ abi: EARN_WRAPPER_ABI, functionName: "claimFees" }),
  claimRewards: () => encodeFunctionData({ abi: EARN_WRAPPER_ABI, functionName: "claimRewards" }),
  setDepositsDisabled: (disabled: boolean) => encodeFunctionData({ abi: EARN_WRAPPER_ABI, functionName: "setDepositsDisabled", args: [disabled] }),
};
