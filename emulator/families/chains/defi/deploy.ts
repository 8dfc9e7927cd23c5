/**
 * The local DeFi set of a chain: what is deployed, where, and the deployment itself. On first use
 * the operator (operator.ts) sends real transactions, each at a fixed nonce of its own, so every
 * address is `CREATE(operator, nonce)`: the same on every local chain and every instance, known
 * before anything is deployed. A deployment cut short resumes at the operator's next nonce.
 *
 *   nonce 0  TUSD     LocalToken "Test USD", 6 decimals
 *         1  WETH     WrappedEther
 *         2  TRWD     LocalToken "Emulator Reward", 18 decimals (the Earn wrappers' reward token)
 *         3  evTUSD   YieldVault over TUSD, 5% a year
 *         4  evWETH   YieldVault over WETH, 3% a year
 *         5  pool     ConstantProductPool TUSD/WETH, 0.30% fee
 *      6-12  seeding: 10,000,000 TUSD and 1,000 WETH of yield reserve in the vaults, and
 *            3,000,000 TUSD + 1,000 WETH of liquidity in the pool (3,000 TUSD per WETH, the
 *            emulator's reference ETH price)
 *        13  router   LocalSwapRouter over WETH (swaps to and from ether), added after the set
 *            above so that none of its addresses moved, and before the faucet, whose length
 *            follows the fixture
 *     14...  the faucet: 100,000 TUSD to each fixture account the chain pre-funds
 *
 * Earn wrappers come later, one per earn_deploy_wrapper, at the operator's next nonces.
 */
import { encodeDeployData, encodeFunctionData, getContractAddress, maxUint256, type Hex } from "viem";
import type { EvmChain } from "../evm-chain.js";
import { CONSTANT_PRODUCT_POOL_BYTECODE, CONSTANT_PRODUCT_POOL_ABI, LOCAL_SWAP_ROUTER_ABI, LOCAL_SWAP_ROUTER_BYTECODE, LOCAL_TOKEN_ABI, LOCAL_TOKEN_BYTECODE, WRAPPED_ETHER_ABI, WRAPPED_ETHER_BYTECODE, YIELD_VAULT_ABI, YIELD_VAULT_BYTECODE } from "./artifact.js";
import { DEFI_OPERATOR_ADDRESS, sendAsOperator, serializedForOperator, type OperatorTx } from "./operator.js";

const SECONDS_PER_YEAR = 31_536_000n;
const WAD = 10n ** 18n;

/** ratePerSecond (scaled by 1e18) of a simple yearly rate given in basis points. */
export function ratePerSecondOf(bpsPerYear: bigint): bigint {
  return (bpsPerYear * WAD) / 10_000n / SECONDS_PER_YEAR;
}

const at = (nonce: number): Hex => getContractAddress({ from: DEFI_OPERATOR_ADDRESS, nonce: BigInt(nonce) });

export type LocalAsset = { address: Hex; symbol: string; name: string; decimals: number };
export type LocalVault = {
  vault: Hex;
  name: string;
  symbol: string;
  asset: LocalAsset;
  /** Yield per second per unit, scaled by 1e18. */
  ratePerSecond: bigint;
  /** Rewards (TRWD base units) a wrapper pays per share base unit per second, scaled by 1e18. */
  rewardRate: bigint;
};
export type LocalPool = { pool: Hex; token0: LocalAsset; token1: LocalAsset; feeBps: bigint };

export const TUSD: LocalAsset = { address: at(0), symbol: "TUSD", name: "Test USD", decimals: 6 };
export const WETH: LocalAsset = { address: at(1), symbol: "WETH", name: "Wrapped Ether", decimals: 18 };
export const REWARD_TOKEN: LocalAsset = { address: at(2), symbol: "TRWD", name: "Emulator Reward", decimals: 18 };

/** The vaults: 0.1 TRWD per TUSD-year and 300 TRWD per WETH-year of wrapper shares held (TUSD's rate at 3,000 TUSD per WETH). */
export const LOCAL_VAULTS: readonly LocalVault[] = [
  { vault: at(3), name: "Emulator TUSD Vault", symbol: "evTUSD", asset: TUSD, ratePerSecond: ratePerSecondOf(500n), rewardRate: (10n ** 17n * WAD) / (10n ** 6n * SECONDS_PER_YEAR) },
  { vault: at(4), name: "Emulator WETH Vault", symbol: "evWETH", asset: WETH, ratePerSecond: ratePerSecondOf(300n), rewardRate: (300n * 10n ** 18n * WAD) / (10n ** 18n * SECONDS_PER_YEAR) },
];

export const LOCAL_POOLS: readonly LocalPool[] = [{ pool: at(5), token0: TUSD, token1: WETH, feeBps: 30n }];

/** The router that swaps ether in and out of the pools that trade WETH (LocalSwapRouter.sol). */
export const SWAP_ROUTER: Hex = at(13);

const TUSD_VAULT_RESERVE = 10_000_000n * 10n ** 6n;
const WETH_VAULT_RESERVE = 1_000n * 10n ** 18n;
const POOL_TUSD = 3_000_000n * 10n ** 6n;
const POOL_WETH = 1_000n * 10n ** 18n;
/** What the faucet gives each fixture account. */
export const FIXTURE_TUSD = 100_000n * 10n ** 6n;

const tokenDeploy = (a: LocalAsset): OperatorTx => ({ data: encodeDeployData({ abi: LOCAL_TOKEN_ABI, bytecode: LOCAL_TOKEN_BYTECODE, args: [a.name, a.symbol, a.decimals] }) });
const vaultDeploy = (v: LocalVault): OperatorTx => ({
  data: encodeDeployData({ abi: YIELD_VAULT_ABI, bytecode: YIELD_VAULT_BYTECODE, args: [v.asset.address, v.name, v.symbol, v.asset.decimals, v.ratePerSecond] }),
});
const call = (to: Hex, data: Hex, value?: bigint): OperatorTx => ({ to, data, ...(value ? { value } : {}) });
const tokenCall = <F extends "mint" | "approve" | "transfer">(to: Hex, functionName: F, args: readonly [Hex, bigint]) =>
  call(to, encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName, args } as never));

/** Every transaction of the deployment, in nonce order. */
export function deploymentSteps(fundAccounts: readonly Hex[]): OperatorTx[] {
  const [tusdVault, wethVault] = LOCAL_VAULTS as [LocalVault, LocalVault];
  const pool = LOCAL_POOLS[0]!;
  return [
    tokenDeploy(TUSD),
    { data: WRAPPED_ETHER_BYTECODE },
    tokenDeploy(REWARD_TOKEN),
    vaultDeploy(tusdVault),
    vaultDeploy(wethVault),
    { data: encodeDeployData({ abi: CONSTANT_PRODUCT_POOL_ABI, bytecode: CONSTANT_PRODUCT_POOL_BYTECODE, args: [pool.token0.address, pool.token1.address, pool.feeBps] }) },
    tokenCall(TUSD.address, "mint", [tusdVault.vault, TUSD_VAULT_RESERVE]),
    call(WETH.address, encodeFunctionData({ abi: WRAPPED_ETHER_ABI, functionName: "deposit" }), WETH_VAULT_RESERVE + POOL_WETH),
    tokenCall(WETH.address, "transfer", [wethVault.vault, WETH_VAULT_RESERVE]),
    tokenCall(TUSD.address, "mint", [DEFI_OPERATOR_ADDRESS, POOL_TUSD]),
    tokenCall(TUSD.address, "approve", [pool.pool, maxUint256]),
    tokenCall(WETH.address, "approve", [pool.pool, maxUint256]),
    call(pool.pool, encodeFunctionData({ abi: CONSTANT_PRODUCT_POOL_ABI, functionName: "addLiquidity", args: [POOL_TUSD, POOL_WETH, DEFI_OPERATOR_ADDRESS] })),
    { data: encodeDeployData({ abi: LOCAL_SWAP_ROUTER_ABI, bytecode: LOCAL_SWAP_ROUTER_BYTECODE, args: [WETH.address] }) },
    ...fundAccounts.map((a) => tokenCall(TUSD.address, "mint", [a, FIXTURE_TUSD])),
  ];
}

/**
 * Deploys what is missing of the local DeFi set (nothing once the operator has sent every step).
 * Under automine each step is mined as it is sent; with automine off the steps are mined here,
 * and with them whatever else waits in the mempool.
 */
export function deployLocalDefi(chain: EvmChain, fundAccounts: readonly Hex[]): Promise<void> {
  return serializedForOperator(chain, async () => {
    const steps = deploymentSteps(fundAccounts);
    const sent = Number(await chain.getNonce(DEFI_OPERATOR_ADDRESS, "latest"));
    if (sent >= steps.length) return;
    const hashes: Hex[] = [];
    for (let nonce = Number(await chain.getNonce(DEFI_OPERATOR_ADDRESS, "pending")); nonce < steps.length; nonce++) {
      hashes.push(await sendAsOperator(chain, steps[nonce]!, BigInt(nonce)));
    }
    while (Number(await chain.getNonce(DEFI_OPERATOR_ADDRESS, "latest")) < steps.length) await chain.mine();
    for (const hash of hashes) {
      const status = await chain.getTransactionStatus(hash);
      if (status.status !== "included") throw new Error(`local DeFi deployment on ${chain.caip2}: transaction ${hash} ${status.status === "failed" ? `failed: ${status.error.message}` : status.status}`);
    }
  });
}
