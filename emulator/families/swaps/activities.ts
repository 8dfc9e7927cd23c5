/**
 * Swaps on the local EVM chains' pools (pools.ts, docs/swaps.md):
 * - create_swap_quote prices a pair from the pool's reserves: its exact output less Turnkey's fee
 *   and the client fee of the parent organization's swap configuration, with the minimum the
 *   slippage allows, and keeps the quote (valid QUOTE_TTL_MS);
 * - execute_swap (ACTIVITY_TYPE_EXECUTE_SWAP_V2) checks that the intent restates an unexpired,
 *   unexecuted quote of the organization exactly, checks the chain (pre-flight), and sends the
 *   swap as a gas-station batch signed by the quote's account (sponsored or not, with the EVM
 *   nonce or gas-station nonce given; ether in or out through the local router); its send is
 *   recorded like eth_send_transaction's;
 * - claim_swap_fees pays what the fee receiver's vault holds on each local chain out to it.
 * get_swap_status (queries.ts) follows a swap. Solana answers 501 (SOLANA_SWAPS_501).
 */
import { createHash } from "node:crypto";
import type { Hex } from "viem";
import { invalidArgument, isTurnkeyError, unimplemented } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import { isUuid } from "../../core/ids.js";
import { chainEffect, defineActivity, type ChainEffect, type IntentOf } from "../../core/vocabulary/define.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { parseCaip19, type AssetRef, checkSponsorshipAllowed, RpcError, chainWatcher, ethSigner, evmSent, recordSend, sendBatch, requireNetworks, type SentTransaction } from "../chains/index.js";
import type { EvmChain } from "../chains/index.js";
import type { SwapRoute, RouteRefusal } from "./swap.js";
import type { SwapQuoteRow } from "./repository.js";
import { requireParentOrganization, swapFeeConfig } from "./config.js";

const swapModule = () => import("./swap.js");
const feeModule = () => import("./fees.js");

/** The emulated provider's name in quotes and statuses (the service names its aggregator, "relay": docs/swaps.md). */
export const SWAP_PROVIDER = "local-pool";
/** How long a quote may be executed (the documents give no validity: docs/swaps.md). */
export const QUOTE_TTL_MS = 60_000;
/** The slippage a quote allows when the request names none (each provider applies its own default: docs/swaps.md). */
export const DEFAULT_SLIPPAGE_BPS = 50n;

export const SOLANA_SWAPS_501 =
  "Solana swaps are not emulated: they need a pool program in the local cluster (LiteSVM), and none can be built offline (no SBF toolchain); swaps run on the local EVM chains' pools";

const networksOf = (ctx: ActivityContext, field: string) => requireNetworks(ctx.rt, field);

/** A positive base-unit amount (decimal digits). */
function baseUnits(value: string, field: string): bigint {
  if (!/^[0-9]{1,78}$/.test(value) || BigInt(value) === 0n) throw invalidArgument(`${field.replace("parameters.", "")} must be a positive whole number of base units (decimal digits), got ${quote(value)}`, field);
  return BigInt(value);
}

function nonNegative(value: string | undefined, field: string): bigint | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^[0-9]{1,78}$/.test(value)) throw invalidArgument(`${field.replace("parameters.", "")} must be a non-negative whole number (decimal digits), got ${quote(value)}`, field);
  return BigInt(value);
}

function slippage(value: string | undefined): bigint {
  if (value === undefined) return DEFAULT_SLIPPAGE_BPS;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 10_000) throw invalidArgument(`slippageBps must be a whole number of basis points between 0 and 10000, got ${quote(value)}`, "parameters.slippageBps");
  return BigInt(value);
}

/** The route of a quoted pair, or the refusal: 501 for what the local chains cannot offer, 400 naming outputToken for a pair no pool trades. */
function route(r: SwapRoute | RouteRefusal): SwapRoute {
  if ("kind" in r) throw r.kind === "unsupported" ? unimplemented(`this swap is not emulated: ${r.message}`) : invalidArgument(r.message, "parameters.outputToken");
  return r;
}

function pair(input: string, output: string): { input: AssetRef; output: AssetRef } {
  const pair = { input: parseCaip19(input, "parameters.inputToken"), output: parseCaip19(output, "parameters.outputToken") };
  if (pair.input.namespace === "solana" || pair.output.namespace === "solana") throw unimplemented(SOLANA_SWAPS_501);
  return pair;
}

type QuoteParams = IntentOf<"ACTIVITY_TYPE_CREATE_SWAP_QUOTE">;

/** Prices the quote from the pool's reserves on the chain; `settleQuote` records it with the activity. */
async function createSwapQuote(ctx: ActivityContext, p: QuoteParams): Promise<SwapQuoteRow> {
  const { input, output } = pair(p.inputToken, p.outputToken);
  const amountIn = baseUnits(p.inputAmount, "parameters.inputAmount");
  const slippageBps = slippage(p.slippageBps);
  if (isUuid(p.signWith)) throw invalidArgument("signWith must be a wallet account or private key address: private key ids are not supported for swaps", "parameters.signWith");
  const { address: from } = ethSigner(ctx, p.signWith, "parameters.signWith");
  const config = swapFeeConfig(ctx.rt, ctx.org);
  const sw = await swapModule();
  const r = route(sw.routeOf(input, output));
  const chain = await networksOf(ctx, "parameters.inputToken").defi(input.caip2, "parameters.inputToken");
  const { TURNKEY_SWAP_FEE_BPS } = await feeModule();
  const clientBps = config.receiver ? (sw.isStablepair(r) && config.stableFeeBps !== null ? config.stableFeeBps : config.feeBps) : 0n;
  const { reserveIn, reserveOut } = await sw.reservesOf(chain, r);
  const price = sw.priceSwap(amountIn, reserveIn, reserveOut, r.pool.feeBps, { turnkeyBps: TURNKEY_SWAP_FEE_BPS, clientBps, slippageBps });
  if (price.outputAmount <= 0n) throw invalidArgument(`inputAmount ${amountIn} is too small: the pool would pay out nothing after fees`, "parameters.inputAmount");
  const row: SwapQuoteRow = {
    id: `sq_v1_${Buffer.from(ctx.rt.random.bytes(32)).toString("hex")}`,
    orgId: ctx.org.id,
    activityId: ctx.activityId,
    signWith: from,
    caip2: r.caip2,
    inputToken: input.caip19,
    outputToken: output.caip19,
    inputAmount: amountIn.toString(),
    outputAmount: price.outputAmount.toString(),
    minOutputAmount: price.minOutputAmount.toString(),
    slippageBps: slippageBps.toString(),
    clientFeeBps: clientBps.toString(),
    clientFee: price.clientFee.toString(),
    turnkeyFee: price.turnkeyFee.toString(),
    feeReceiver: clientBps > 0n ? config.receiver : null,
    provider: SWAP_PROVIDER,
    expiresAt: ctx.now + QUOTE_TTL_MS,
    createdAt: ctx.now,
  };
  return row;
}

function settleQuote(ctx: ActivityContext, row: SwapQuoteRow): Record<string, unknown> {
  ctx.rt.store.swapQuotes.insert(row);
  return {
    quotes: [{ quoteId: row.id, provider: row.provider, outputAmount: row.outputAmount, minOutputAmount: row.minOutputAmount, expiresAt: String(row.expiresAt), slippageBps: row.slippageBps, clientFeeBps: row.clientFeeBps }],
  };
}

type ExecuteParams = IntentOf<"ACTIVITY_TYPE_EXECUTE_SWAP_V2">;

/** The quote the intent executes: the organization's, not executed, not expired, restated exactly. */
function boundQuote(ctx: ActivityContext, p: ExecuteParams): SwapQuoteRow {
  const q = ctx.rt.store.swapQuotes.get(ctx.org.id, p.quoteId);
  if (!q) throw invalidArgument(`no swap quote ${quote(p.quoteId)} in organization ${ctx.org.id}: execute a quoteId that create_swap_quote returned`, "parameters.quoteId");
  const done = ctx.rt.store.swaps.ofQuote(q.id);
  if (done) throw invalidArgument(`quote ${q.id} was already executed (swapRequestId ${done.id}): request a new quote`, "parameters.quoteId");
  if (ctx.now > q.expiresAt) throw invalidArgument(`quote ${q.id} expired at ${new Date(q.expiresAt).toISOString()}: request a new quote`, "parameters.quoteId");
  const asset = (value: string, field: string, quoted: string) => {
    if (parseCaip19(value, field).caip19 !== quoted) throw invalidArgument(`${field.replace("parameters.", "")} ${value} is not the quote's ${quoted}`, field);
  };
  const amount = (value: string, field: string, quoted: string) => {
    if (nonNegative(value, field) !== BigInt(quoted)) throw invalidArgument(`${field.replace("parameters.", "")} ${value} is not the quote's ${quoted}: the intent restates the quote exactly`, field);
  };
  asset(p.inputToken, "parameters.inputToken", q.inputToken);
  asset(p.outputToken, "parameters.outputToken", q.outputToken);
  amount(p.inputAmount, "parameters.inputAmount", q.inputAmount);
  amount(p.quotedOutputAmount, "parameters.quotedOutputAmount", q.outputAmount);
  amount(p.minOutputAmount, "parameters.minOutputAmount", q.minOutputAmount);
  return q;
}

/** The swapRequestId: a digest of the quote and the activity that executed it. */
const swapRequestIdOf = (quoteId: string, activityId: string) => `sha256:${createHash("sha256").update(`${quoteId}:${activityId}`).digest("hex")}`;

/** What executing a swap came to: its transaction on the chain, or why it failed before broadcast. */
type SwapSent = { sent: SentTransaction } | { error: string };

/**
 * Prepares a swap in the activity's transaction: checks the intent against its quote and takes
 * the quote (the swap's row), the one step that must not race: a second execution of the quote
 * is refused by boundQuote. The effect checks the pool and sends the batch; the settle records
 * the send, or the failure, on the swap. A failing effect gives the quote back.
 */
function executeSwap(ctx: ActivityContext, p: ExecuteParams): ChainEffect<SwapSent> {
  const q = boundQuote(ctx, p);
  if (p.recentBlockhash !== undefined) throw invalidArgument("recentBlockhash is valid only for a Solana swap", "parameters.recentBlockhash");
  const evmNonce = nonNegative(p.evmNonce, "parameters.evmNonce");
  const gasStationNonce = nonNegative(p.gasStationNonce, "parameters.gasStationNonce");
  if (p.sponsor && evmNonce !== undefined) throw invalidArgument("evmNonce is valid only for a non-sponsored EVM swap (a sponsored batch is sent by the gas station: use gasStationNonce)", "parameters.evmNonce");
  // The signer is derived from the quote; it may have been deleted since.
  const { key, address: from } = ethSigner(ctx, q.signWith, "parameters.quoteId");
  const id = swapRequestIdOf(q.id, ctx.activityId);
  ctx.rt.store.swaps.insert({ id, orgId: ctx.org.id, quoteId: q.id, activityId: ctx.activityId, caip2: q.caip2, fromAddress: from, sponsored: p.sponsor, sendTransactionId: null, txHash: null, error: null, createdAt: ctx.now });
  const send = async (): Promise<SwapSent> => {
    if (p.sponsor) await checkSponsorshipAllowed(ctx);
    const chain = await networksOf(ctx, "parameters.inputToken").defi(q.caip2, "parameters.inputToken");
    const [sw, fees, gas] = await Promise.all([swapModule(), feeModule(), import("../chains/gas-station/index.js")]);
    const r = route(sw.routeOf(parseCaip19(q.inputToken, "parameters.inputToken"), parseCaip19(q.outputToken, "parameters.outputToken")));
    const terms = { amountIn: BigInt(q.inputAmount), minOutputAmount: BigInt(q.minOutputAmount), turnkeyFee: BigInt(q.turnkeyFee), clientFee: BigInt(q.clientFee) };
    const refused = await sw.preflight(chain, r, from, terms);
    if (refused) return { error: `pre-flight check failed: ${refused}` };
    try {
      // An EVM nonce is honoured for an account that already delegates (a type-2 batch); a first batch's nonce follows from its authorization.
      const delegated = (await gas.delegationOf(chain, from, "pending")) === gas.GAS_DELEGATE_ADDRESS;
      const calls = sw.swapCalls(r, terms, from, { turnkey: fees.TURNKEY_FEE_ACCOUNT, client: q.feeReceiver ? fees.feeVault(q.feeReceiver).address : undefined });
      const txHash = await sendBatch(
        chain,
        { key, from, calls, sponsor: p.sponsor, ...(gasStationNonce !== undefined ? { gasStationNonce } : {}), ...(delegated && evmNonce !== undefined ? { nonce: evmNonce } : {}) },
        (err) => {
          throw err;
        },
      );
      return { sent: evmSent(chain, txHash, from, { sponsored: p.sponsor, kind: "swap" }) };
    } catch (err) {
      // Refused before it reached a block (funds for gas, a nonce the chain rejects): the swap failed before broadcast.
      if (!isTurnkeyError(err) && !(err instanceof RpcError)) throw err;
      return { error: `the chain refused the swap's transaction: ${(err as Error).message}` };
    }
  };
  const settle = (r: SwapSent) => {
    if ("sent" in r) ctx.rt.store.swaps.update(id, { sendTransactionId: recordSend(ctx, r.sent), txHash: r.sent.txHash });
    else ctx.rt.store.swaps.update(id, { error: { message: r.error } });
    return { swapRequestId: id, provider: q.provider, quoteId: q.id };
  };
  return chainEffect(send, settle, () => ctx.rt.store.swaps.remove(id));
}

/** Pays the collected fees out to the receiver on every local chain started (the fee vaults hold them: nothing of ours to record). */
async function claimSwapFees(ctx: ActivityContext): Promise<Record<string, unknown>> {
  requireParentOrganization(ctx, "claim_swap_fees");
  const { receiver } = swapFeeConfig(ctx.rt, ctx.org);
  if (!receiver) throw invalidArgument("no swap fee receiver is configured: set feeBps (and feeReceiverWalletAddress) with upsert_swap_config first", "organizationId");
  const networks = networksOf(ctx, "organizationId");
  const { payOutFees } = await feeModule();
  const chains = networks.started().filter((c) => c.namespace === "eip155" && c.backend.kind === "local");
  for (const chain of chains) await payOutFees(chain as EvmChain, receiver as Hex);
  chainWatcher(ctx.rt)?.poke();
  return { requestId: ctx.rt.random.uuid() };
}

export const swapOperations = [
  defineActivity("create_swap_quote", {
    subjects: (p) => ({ signWith: p.signWith, address: p.signWith }),
    // Chain effects: prepared in the activity's transaction, the chain read or sent outside it, settled with the activity.
    run: (ctx, p) => chainEffect(() => createSwapQuote(ctx, p), (row) => settleQuote(ctx, row)),
  }),
  defineActivity("execute_swap", {
    run: (ctx, p) => executeSwap(ctx, p),
  }),
  defineActivity("claim_swap_fees", {
    run: (ctx) => chainEffect(() => claimSwapFees(ctx), (result) => result),
  }),
];
