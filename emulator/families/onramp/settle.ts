/**
 * The emulated provider settling a checkout: the buyer pays (COMPLETED), the payment is
 * declined (FAILED) or the buyer walks away (CANCELLED). On COMPLETED the provider "delivers"
 * the coin: when the network has a local chain and the coin is its native one, the amount is
 * credited to the destination address on that chain (Chain.fund), so balances read through
 * get_wallet_address_balances or any JSON-RPC client (viem) see it. Chain.fund is atomic
 * itself (an EVM chain holds its request gate alone for the read and the write), so credits
 * need no queue of their own.
 */
import { GrpcCode, TurnkeyError, invalidArgument, notFound } from "../../core/errors.js";
import type { Runtime } from "../../core/runtime.js";
import type { OnRampTransactionRow, OnRampStatus } from "./repository.js";
import { parseCryptoAmount, parseFiatAmount, quote } from "./amounts.js";
import { deliveryTarget, type CryptoCurrency, type Network } from "./catalog.js";
import { checkField } from "./field.js";
import { networksOf } from "../chains/index.js";

export const CHECKOUT_OUTCOMES = ["COMPLETED", "FAILED", "CANCELLED"] as const;
export type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

/** What the checkout form (or a script) posts. Absent fields take the intent's preset or the emulated quote. */
export type CheckoutSubmission = { outcome?: unknown; fiatAmount?: unknown; cryptoAmount?: unknown };

/** The status get_onramp_transaction_status reports for a stored one. */
export const reportedStatus = (s: OnRampStatus): string => (s === "PROCESSING" ? "PENDING" : s);

const alreadySettled = (t: OnRampTransactionRow) =>
  new TurnkeyError(GrpcCode.FAILED_PRECONDITION, `on-ramp transaction ${t.id} is already ${reportedStatus(t.status)}: a checkout settles once`, []);

const optionalString = (v: unknown, field: string): string | undefined => {
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") throw invalidArgument(`${field} must be a string`, field);
  return v;
};

/** Settles a pending checkout as the buyer chose; returns the stored transaction afterwards. */
export async function settleCheckout(rt: Runtime, id: string, s: CheckoutSubmission): Promise<OnRampTransactionRow> {
  const repo = rt.store.onRampTransactions;
  const t = repo.byId(id);
  if (!t) throw notFound(`no on-ramp transaction ${id}`);
  const outcome = s.outcome ?? "COMPLETED";
  if (typeof outcome !== "string" || !(CHECKOUT_OUTCOMES as readonly string[]).includes(outcome)) throw invalidArgument(`outcome must be one of ${CHECKOUT_OUTCOMES.join(", ")}`, "outcome");
  if (t.status !== "PENDING") throw alreadySettled(t);

  if (outcome === "FAILED" || outcome === "CANCELLED") {
    const note = outcome === "FAILED" ? "the payment was declined on the emulated checkout" : "the buyer cancelled the emulated checkout";
    if (!repo.transition(t.id, "PENDING", outcome, { note }, rt.clock.now())) throw alreadySettled(repo.byId(t.id)!);
    return repo.byId(t.id)!;
  }

  const coin = t.cryptoCurrency as CryptoCurrency;
  const posted = optionalString(s.fiatAmount, "fiatAmount");
  if (t.fiatAmount && posted !== undefined && posted !== t.fiatAmount) throw invalidArgument(`fiatAmount is preset to ${t.fiatAmount} by the on-ramp intent`, "fiatAmount");
  const fiatAmount = t.fiatAmount ?? posted;
  if (fiatAmount === undefined) throw invalidArgument("fiatAmount must be set: the on-ramp intent left the amount to the buyer", "fiatAmount");
  const fiat = checkField("fiatAmount", () => parseFiatAmount(fiatAmount));
  const typed = optionalString(s.cryptoAmount, "cryptoAmount");
  const units = typed === undefined ? quote(fiat, coin) : checkField("cryptoAmount", () => parseCryptoAmount(typed, coin));

  const claimed = repo.transition(t.id, "PENDING", "PROCESSING", { fiatAmount, fiatCurrency: t.fiatCurrency ?? "FIAT_ON_RAMP_CURRENCY_USD", cryptoAmount: units.toString() }, rt.clock.now());
  if (!claimed) throw alreadySettled(repo.byId(t.id)!);

  const target = deliveryTarget(t.network as Network, coin, t.sandboxMode);
  if ("skipped" in target) {
    repo.transition(t.id, "PROCESSING", "COMPLETED", { note: target.skipped }, rt.clock.now());
    return repo.byId(t.id)!;
  }
  try {
    const networks = networksOf(rt);
    if (!networks) throw new Error("this emulator instance runs no chains");
    await (await networks.get(target.caip2)).fund(t.walletAddress, units);
    repo.transition(t.id, "PROCESSING", "COMPLETED", { caip2: target.caip2 }, rt.clock.now());
  } catch (e) {
    repo.transition(t.id, "PROCESSING", "FAILED", { caip2: target.caip2, note: `delivery to ${target.caip2} failed: ${(e as Error).message}` }, rt.clock.now());
  }
  return repo.byId(t.id)!;
}
