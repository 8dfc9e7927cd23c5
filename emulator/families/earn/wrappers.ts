/**
 * Earn on the local DeFi set, from the chain: the operator's transactions for a wrapper (deploy,
 * deposits switch, fee claim), and what the Earn queries report (a vault's TVL and APY, a
 * wrapper's deposits, fee and switch, a holder's position and rewards). Amounts are base units.
 */
import { decodeEventLog, encodeFunctionData, getContractAddress, type Hex } from "viem";
import type { EvmChain } from "../chains/index.js";
import { EARN_WRAPPER_ABI, LOCAL_TOKEN_ABI, REWARD_TOKEN, type LocalVault, DEFI_OPERATOR_ADDRESS, sendAsOperator, serializedForOperator } from "../chains/defi/index.js";
import { vaultView, wrapperCalldata, wrapperDeployData, wrapperView } from "./vaults.js";

/**
 * Deploys a wrapper over `vault` (owner: the operator) and lets it mint the reward token; answers
 * its address (CREATE of the operator's nonce, known before it is mined) and the deployment's hash.
 */
export function deployWrapper(chain: EvmChain, vault: LocalVault, feeWallet: Hex, feeBps: bigint): Promise<{ wrapper: Hex; txHash: Hex }> {
  return serializedForOperator(chain, async () => {
    const nonce = await chain.getNonce(DEFI_OPERATOR_ADDRESS, "pending");
    const wrapper = getContractAddress({ from: DEFI_OPERATOR_ADDRESS, nonce });
    const txHash = await sendAsOperator(chain, { data: wrapperDeployData(vault, feeWallet, feeBps) }, nonce);
    await sendAsOperator(chain, { to: REWARD_TOKEN.address, data: encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName: "setMinter", args: [wrapper, true] }) }, nonce + 1n);
    return { wrapper, txHash };
  });
}

/** The operator's `setDepositsDisabled` on a wrapper it owns; answers the hash. */
export function setDepositsDisabled(chain: EvmChain, wrapper: Hex, disabled: boolean): Promise<Hex> {
  return serializedForOperator(chain, () => sendAsOperator(chain, { to: wrapper, data: wrapperCalldata.setDepositsDisabled(disabled) }));
}

/** The operator calls `claimFees()` (anyone may: the fee goes to the wrapper's fee wallet); answers the hash. */
export function claimFees(chain: EvmChain, wrapper: Hex): Promise<Hex> {
  return serializedForOperator(chain, () => sendAsOperator(chain, { to: wrapper, data: wrapperCalldata.claimFees() }));
}

/** A vault's TVL (its total assets now). */
export const vaultTvl = (chain: EvmChain, vault: Hex) => vaultView<bigint>(chain, vault, "totalAssets");

/** What a wrapper reports: deposits (its total assets net of fee), its switch and the claimable client fee. */
export async function wrapperState(chain: EvmChain, wrapper: Hex): Promise<{ totalAssets: bigint; depositsDisabled: boolean; claimableFees: bigint }> {
  const [totalAssets, depositsDisabled, claimableFees] = await Promise.all([
    wrapperView<bigint>(chain, wrapper, "totalAssets"),
    wrapperView<boolean>(chain, wrapper, "depositsDisabled"),
    wrapperView<bigint>(chain, wrapper, "claimableFees"),
  ]);
  return { totalAssets, depositsDisabled, claimableFees };
}

/** Whether a wrapper has code yet (its deployment may still wait for a block). */
export async function isDeployed(chain: EvmChain, wrapper: Hex): Promise<boolean> {
  return (await chain.rpc<Hex>("eth_getCode", [wrapper, "latest"])) !== "0x";
}

export type Position = { shares: bigint; currentValue: bigint; maxWithdraw: bigint; totalDeposited: bigint; totalWithdrawn: bigint };

/**
 * A holder's position in a wrapper: its shares, their value net of the wrapper's fee, and the
 * lifetime totals of its Deposit and Withdraw events (owner = the holder).
 */
export async function positionOf(chain: EvmChain, wrapper: Hex, holder: Hex): Promise<Position> {
  const shares = await wrapperView<bigint>(chain, wrapper, "balanceOf", [holder]);
  const [currentValue, maxWithdraw] = await Promise.all([wrapperView<bigint>(chain, wrapper, "convertToAssets", [shares]), wrapperView<bigint>(chain, wrapper, "maxWithdraw", [holder])]);
  const logs = await chain.rpc<{ topics: Hex[]; data: Hex }[]>("eth_getLogs", [{ address: wrapper, fromBlock: "0x0", toBlock: "latest" }]);
  let totalDeposited = 0n;
  let totalWithdrawn = 0n;
  for (const log of logs) {
    let event;
    try {
      event = decodeEventLog({ abi: EARN_WRAPPER_ABI, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
    } catch {
      continue;
    }
    if (event.eventName === "Deposit" && event.args.owner.toLowerCase() === holder.toLowerCase()) totalDeposited += event.args.assets;
    if (event.eventName === "Withdraw" && event.args.owner.toLowerCase() === holder.toLowerCase()) totalWithdrawn += event.args.assets;
  }
  return { shares, currentValue, maxWithdraw, totalDeposited, totalWithdrawn };
}

/** A holder's rewards in a wrapper: claimable now, and claimed so far. */
export async function rewardsOf(chain: EvmChain, wrapper: Hex, holder: Hex): Promise<{ claimable: bigint; claimed: bigint }> {
  const [claimable, claimed] = await Promise.all([wrapperView<bigint>(chain, wrapper, "earnedRewards", [holder]), wrapperView<bigint>(chain, wrapper, "rewardsClaimed", [holder])]);
  return { claimable, claimed };
}
