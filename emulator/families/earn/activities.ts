/**
 * Earn (docs/earn.md) on the emulator's local DeFi set (emulator/families/chains/defi/):
 * earn_deploy_wrapper deploys a fee wrapper over a local vault for the organization;
 * earn_deposit, earn_withdraw and earn_claim_rewards sign the wallet account's transactions
 * (approve + deposit, withdraw / redeem, claimRewards) with the organization's key, sponsored
 * through the gas station when `sponsor` is set; earn_set_wrapper_state and claim_earn_fees are
 * the operator's transactions (the service's side). Each answers a request id whose status the
 * get_*_status queries (queries.ts) read back from the chain.
 *
 * Wrappers belong to the top-level organization; its sub-organizations deposit into them
 * (UNCONFIRMED(earn-org-scope) in docs/earn.md).
 */
import type { Hex } from "viem";
import { invalidArgument, isTurnkeyError } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import { chainEffect, defineActivity, type IntentOf } from "../../core/vocabulary/define.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import type { EvmChain } from "../chains/index.js";
import type { EarnRequestKind, EarnWrapperRow } from "./repository.js";
import { eip1559Fees, requireFunds, RpcError, checkSponsorshipAllowed, chainWatcher, checkEvmAddress } from "../chains/index.js";
import { signEthereumTransaction, type SigningKey } from "../../signing/index.js";
import { lazyModule } from "../../core/lazy-module.js";
import { chainRejection, ethSigner } from "../chains/index.js";
import { sendBatch } from "../chains/index.js";
import { requireNetworks } from "../chains/index.js";

const viem = lazyModule<typeof import("viem")>("viem");
const defi = () => import("./defi.js");

/** The published maximum client fee (40%). */
const MAX_CLIENT_FEE_BPS = 4_000n;
/** Gas for a wallet's Earn call that cannot be estimated (it waits on an earlier one, or on the account's first gas-station delegation). */
const EARN_CALL_GAS = 500_000n;

type Call = { to: Hex; value: bigint; data: Hex };

/** The organization that owns the Earn wrappers `ctx.org` uses: itself, or its parent. */
const ownerOf = (ctx: ActivityContext) => ctx.org.parentId ?? ctx.org.id;

function topLevelOnly(ctx: ActivityContext, what: string): void {
  if (ctx.org.parentId) throw invalidArgument(`${what} belongs to the top-level organization ${ctx.org.parentId}: Earn wrappers are managed there, and a sub-organization deposits into its parent's wrappers`, "organizationId");
}

const networksOf = (ctx: ActivityContext) => requireNetworks(ctx.rt, "parameters.chainCaip2");

/** A positive amount in base units (decimal). */
function amountOf(value: string, field: string): bigint {
  if (!/^[0-9]{1,78}$/.test(value) || BigInt(value) === 0n) throw invalidArgument(`${field.split(".").pop()} must be a positive integer amount in the asset's base units, got ${quote(value)}`, field);
  return BigInt(value);
}

/** The organization's wrapper at `address`, on the chain `caip2` names (resolved), with that chain (its local DeFi deployed). */
async function wrapperOn(ctx: ActivityContext, address: string, caip2: string | undefined): Promise<{ row: EarnWrapperRow; chain: EvmChain }> {
  const wrapperAddress = checkEvmAddress(address, "parameters.wrapperAddress");
  const row = ctx.rt.store.earnWrappers.byAddress(ownerOf(ctx), wrapperAddress);
  if (!row) throw invalidArgument(`wrapperAddress ${wrapperAddress} is not an Earn wrapper of organization ${ownerOf(ctx)} (earn_deploy_wrapper deploys one; list_earn_enabled_vaults lists them)`, "parameters.wrapperAddress");
  const networks = networksOf(ctx);
  if (caip2 !== undefined && networks.resolve(caip2, "parameters.chainCaip2") !== row.caip2) {
    throw invalidArgument(`wrapper ${row.wrapperAddress} lives on ${row.caip2}, not on ${caip2}`, "parameters.chainCaip2");
  }
  return { row, chain: await networks.defi(row.caip2, "parameters.chainCaip2") };
}

/** Records an Earn request (its transaction's hash) in the transaction that settles its activity, wakes the chain watcher, and answers the request's id. */
function record(ctx: ActivityContext, kind: EarnRequestKind, sent: Sent, id = ctx.rt.random.uuid()): string {
  ctx.rt.store.earnRequests.insert({ id, orgId: ctx.org.id, activityId: ctx.activityId, kind, caip2: sent.caip2, txHash: sent.txHash, sponsored: sent.sponsored, createdAt: ctx.now });
  chainWatcher(ctx.rt)?.poke(); // balance events for the movements
  return id;
}

/** What an Earn request put on the chain. */
type Sent = { caip2: string; txHash: string; sponsored: boolean };

/** An Earn request as a chain effect: `send` puts its transaction on the chain; the request is recorded with the activity, its id answered as `resultKey`. */
const earnRequest = (ctx: ActivityContext, kind: EarnRequestKind, resultKey: string, send: () => Promise<Sent>) => chainEffect(send, (sent) => ({ [resultKey]: record(ctx, kind, sent) }));

/** The chain refused a wallet's transaction: the send's field names (parameters.from, .nonce) mean signWith here. */
function rejection(err: unknown): never {
  try {
    return chainRejection(err);
  } catch (e) {
    if (isTurnkeyError(e)) throw invalidArgument(e.message, "parameters.signWith");
    throw e;
  }
}

/**
 * The wallet account sends `calls`: sponsored, one gas-station batch the paymaster submits (as
 * eth_send_transaction does); otherwise plain EIP-1559 transactions from the account, one per
 * call, in order. Answers the hash of the last (the one that does the Earn operation).
 */
async function sendFromWallet(ctx: ActivityContext, chain: EvmChain, signer: { key: SigningKey; address: Hex }, calls: Call[], sponsor: boolean): Promise<string> {
  if (sponsor) {
    await checkSponsorshipAllowed(ctx);
    return sendBatch(chain, { key: signer.key, from: signer.address, calls, sponsor: true, perCallGas: EARN_CALL_GAS }, rejection);
  }
  let hash = "";
  for (const call of calls) {
    const [nonce, fees] = await Promise.all([chain.getNonce(signer.address), chain.getFeeData()]);
    const { tip, maxFee } = eip1559Fees(fees);
    const gas = await chain.estimateGas({ from: signer.address, to: call.to, data: call.data, value: call.value }).then(
      (g) => (g * 12n) / 10n,
      (err: unknown) => {
        if (!(err instanceof RpcError)) throw err;
        return EARN_CALL_GAS;
      },
    );
    await requireFunds(chain, signer.address, { value: call.value, gas: { limit: gas, maxFeePerGas: maxFee } }, "the Earn transaction").catch((e: unknown) => {
      throw invalidArgument((e as Error).message, "parameters.signWith");
    });
    const unsigned = viem.serializeTransaction({ type: "eip1559", chainId: chain.chainId, nonce: Number(nonce), to: call.to, value: call.value, data: call.data, gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip });
    hash = await chain.sendRawTransaction(`0x${signEthereumTransaction(signer.key.privateKey, unsigned)}`).catch(rejection);
  }
  return hash;
}

type DeployParams = IntentOf<"ACTIVITY_TYPE_EARN_DEPLOY_WRAPPER">;

async function deployWrapper(ctx: ActivityContext, p: DeployParams) {
  topLevelOnly(ctx, "earn_deploy_wrapper");
  const d = await defi();
  const networks = networksOf(ctx);
  const caip2 = networks.resolve(p.chainCaip2, "parameters.chainCaip2");
  const vaultAddress = checkEvmAddress(p.vaultAddress, "parameters.vaultAddress");
  if (!/^[0-9]{1,5}$/.test(p.clientFeeBps) || BigInt(p.clientFeeBps) > MAX_CLIENT_FEE_BPS) {
    throw invalidArgument(`clientFeeBps must be an integer from 0 to ${MAX_CLIENT_FEE_BPS} basis points (40%), got ${quote(p.clientFeeBps)}`, "parameters.clientFeeBps");
  }
  const feeWallet = checkEvmAddress(p.clientFeeWallet, "parameters.clientFeeWallet");
  ethSigner(ctx, feeWallet, "parameters.clientFeeWallet"); // a Turnkey-managed address of the organization
  const vault = d.localVault(vaultAddress);
  if (!vault) throw invalidArgument(`vaultAddress ${vaultAddress} is not a vault of the Earn catalog on ${caip2} (list_earn_vaults lists them)`, "parameters.vaultAddress");
  const existing = ctx.rt.store.earnWrappers.byVault(ctx.org.id, caip2, vault.vault);
  if (existing) throw invalidArgument(`vault ${vault.vault} is already enabled on ${caip2}: its wrapper is ${existing.wrapperAddress}`, "parameters.vaultAddress");
  const chain = await networks.defi(caip2, "parameters.chainCaip2");
  return { ...(await d.deployWrapper(chain, vault, feeWallet, BigInt(p.clientFeeBps))), caip2, vaultAddress: vault.vault, feeWallet };
}

/** Records the deployed wrapper and its deploy request with the activity. */
function settleDeploy(ctx: ActivityContext, p: DeployParams, deployed: Awaited<ReturnType<typeof deployWrapper>>) {
  const { wrapper, txHash, caip2, vaultAddress, feeWallet } = deployed;
  const deployRequestId = ctx.rt.random.uuid();
  ctx.rt.store.earnWrappers.insert({ id: deployRequestId, orgId: ctx.org.id, caip2, wrapperAddress: wrapper, vaultAddress, clientFeeBps: Number(p.clientFeeBps), clientFeeWallet: feeWallet, createdAt: ctx.now });
  record(ctx, "deploy", { caip2, txHash, sponsored: false }, deployRequestId);
  // The wrapper pays the client fee to the fee wallet itself: it is its own splitter (UNCONFIRMED(earn-splitter) in docs/earn.md).
  return { wrapperAddress: wrapper, splitterAddress: wrapper, deployRequestId };
}

type DepositParams = IntentOf<"ACTIVITY_TYPE_EARN_DEPOSIT">;

async function deposit(ctx: ActivityContext, p: DepositParams): Promise<Sent> {
  const d = await defi();
  const signer = ethSigner(ctx, checkEvmAddress(p.signWith, "parameters.signWith"), "parameters.signWith");
  const assets = amountOf(p.assets, "parameters.assets");
  const { row, chain } = await wrapperOn(ctx, p.wrapperAddress, p.chainCaip2);
  const wrapper = row.wrapperAddress as Hex;
  const vault = d.localVault(row.vaultAddress)!;
  if (!(await d.isDeployed(chain, wrapper))) throw invalidArgument(`wrapper ${wrapper} is not deployed yet (get_earn_deploy_status follows its deployment)`, "parameters.wrapperAddress");
  if ((await d.wrapperState(chain, wrapper)).depositsDisabled) throw invalidArgument(`deposits to wrapper ${wrapper} are disabled (earn_set_wrapper_state enables them); withdrawals are still allowed`, "parameters.wrapperAddress");
  const held = await chain.getBalance(signer.address, vault.asset.address);
  if (held < assets) throw invalidArgument(`insufficient funds: ${signer.address} holds ${held} ${vault.asset.symbol} base units on ${row.caip2}, the deposit needs ${assets}`, "parameters.assets");
  const calls: Call[] = [
    { to: vault.asset.address, value: 0n, data: d.approveCalldata(wrapper, assets) },
    { to: wrapper, value: 0n, data: d.wrapperCalldata.deposit(assets, signer.address) },
  ];
  return { caip2: row.caip2, txHash: await sendFromWallet(ctx, chain, signer, calls, !!p.sponsor), sponsored: !!p.sponsor };
}

type WithdrawParams = IntentOf<"ACTIVITY_TYPE_EARN_WITHDRAW">;

async function withdraw(ctx: ActivityContext, p: WithdrawParams): Promise<Sent> {
  const d = await defi();
  const signer = ethSigner(ctx, checkEvmAddress(p.signWith, "parameters.signWith"), "parameters.signWith");
  const max = p.amountValue === "MAX";
  const assets = max ? 0n : amountOf(p.amountValue, "parameters.amountValue");
  const { row, chain } = await wrapperOn(ctx, p.wrapperAddress, p.chainCaip2);
  const wrapper = row.wrapperAddress as Hex;
  const position = await d.positionOf(chain, wrapper, signer.address);
  if (position.shares === 0n) throw invalidArgument(`${signer.address} has no position in wrapper ${wrapper}`, "parameters.amountValue");
  if (!max && assets > position.maxWithdraw) throw invalidArgument(`amountValue ${assets} is more than the position holds (${position.maxWithdraw}); pass MAX to withdraw it all`, "parameters.amountValue");
  const data = max ? d.wrapperCalldata.redeem(position.shares, signer.address, signer.address) : d.wrapperCalldata.withdraw(assets, signer.address, signer.address);
  return { caip2: row.caip2, txHash: await sendFromWallet(ctx, chain, signer, [{ to: wrapper, value: 0n, data }], !!p.sponsor), sponsored: !!p.sponsor };
}

async function setWrapperState(ctx: ActivityContext, p: { wrapperAddress: string; depositsDisabled: boolean }) {
  topLevelOnly(ctx, "earn_set_wrapper_state");
  const d = await defi();
  const { row, chain } = await wrapperOn(ctx, p.wrapperAddress, undefined);
  const txHash = await d.setDepositsDisabled(chain, row.wrapperAddress as Hex, p.depositsDisabled);
  const status = await chain.getTransactionStatus(txHash);
  if (status.status === "failed") throw invalidArgument(`the wrapper refused the change: ${status.error.message}`, "parameters.wrapperAddress");
  return { wrapperAddress: row.wrapperAddress, depositsDisabled: p.depositsDisabled };
}

async function claimEarnFees(ctx: ActivityContext, p: { wrapperAddress: string }): Promise<Sent> {
  topLevelOnly(ctx, "claim_earn_fees");
  const d = await defi();
  const { row, chain } = await wrapperOn(ctx, p.wrapperAddress, undefined);
  const wrapper = row.wrapperAddress as Hex;
  if ((await d.wrapperState(chain, wrapper)).claimableFees === 0n) throw invalidArgument(`wrapper ${wrapper} has no client fee to claim yet (it accrues as the vault pays yield)`, "parameters.wrapperAddress");
  return { caip2: row.caip2, txHash: await d.claimFees(chain, wrapper), sponsored: false };
}

async function claimRewards(ctx: ActivityContext, p: { signWith: string; chainCaip2: string; sponsor?: boolean }): Promise<Sent> {
  const d = await defi();
  const signer = ethSigner(ctx, checkEvmAddress(p.signWith, "parameters.signWith"), "parameters.signWith");
  const networks = networksOf(ctx);
  const caip2 = networks.resolve(p.chainCaip2, "parameters.chainCaip2");
  const chain = await networks.defi(caip2, "parameters.chainCaip2");
  const calls: Call[] = [];
  for (const w of ctx.rt.store.earnWrappers.list(ownerOf(ctx), caip2)) {
    if (!(await d.isDeployed(chain, w.wrapperAddress as Hex))) continue;
    if ((await d.rewardsOf(chain, w.wrapperAddress as Hex, signer.address)).claimable > 0n) calls.push({ to: w.wrapperAddress as Hex, value: 0n, data: d.wrapperCalldata.claimRewards() });
  }
  if (!calls.length) throw invalidArgument(`${signer.address} has no Earn rewards to claim on ${caip2}`, "parameters.signWith");
  // Several wrappers: one gas-station batch (as eth_send_transaction sends several calls), sponsored or not.
  const txHash =
    calls.length > 1 && !p.sponsor
      ? await sendBatch(chain, { key: signer.key, from: signer.address, calls, sponsor: false, perCallGas: EARN_CALL_GAS }, rejection)
      : await sendFromWallet(ctx, chain, signer, calls, !!p.sponsor);
  return { caip2, txHash, sponsored: !!p.sponsor };
}

/** What the policy engine sees of a wallet's Earn transaction: the signer. */
const walletSubjects = (p: { signWith: string }) => ({ signWith: p.signWith, address: p.signWith });

/** Earn's place in the policy language: ours (UNCONFIRMED(earn-policy-resource), docs/earn.md). */
const SIGNS = { resource: "PRIVATE_KEY", action: "SIGN", source: "inferred" } as const;

export const earnOperations = [
  // Each is a chain effect: prepared in the activity's transaction, sent outside it, its request recorded with the activity.
  defineActivity("earn_deploy_wrapper", {
    policy: { resource: "CONFIG", action: "CREATE", source: "inferred" },
    run: (ctx, p) => chainEffect(() => deployWrapper(ctx, p), (deployed) => settleDeploy(ctx, p, deployed)),
  }),
  defineActivity("earn_deposit", {
    subjects: walletSubjects,
    policy: { ...SIGNS, params: [["sign_with", "signWith"], ["wrapper_address", "wrapperAddress"]] },
    run: (ctx, p) => earnRequest(ctx, "deposit", "depositRequestId", () => deposit(ctx, p)),
  }),
  defineActivity("earn_withdraw", {
    subjects: walletSubjects,
    policy: { ...SIGNS, params: [["sign_with", "signWith"], ["wrapper_address", "wrapperAddress"]] },
    run: (ctx, p) => earnRequest(ctx, "withdraw", "withdrawRequestId", () => withdraw(ctx, p)),
  }),
  defineActivity("earn_set_wrapper_state", {
    policy: { resource: "CONFIG", action: "UPDATE", source: "inferred" },
    run: (ctx, p) => chainEffect(() => setWrapperState(ctx, p), (result) => result), // nothing of ours to record: the wrapper holds its state
  }),
  defineActivity("claim_earn_fees", {
    policy: { resource: "CONFIG", action: "UPDATE", source: "inferred" },
    run: (ctx, p) => earnRequest(ctx, "claim_fees", "claimRequestId", () => claimEarnFees(ctx, p)),
  }),
  defineActivity("earn_claim_rewards", {
    subjects: walletSubjects,
    policy: { ...SIGNS, params: [["sign_with", "signWith"]] },
    run: (ctx, p) => earnRequest(ctx, "claim_rewards", "claimRequestId", () => claimRewards(ctx, p)),
  }),
];
