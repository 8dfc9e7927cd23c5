/**
 * The emulated on-ramp provider's routes (control API; unauthenticated, like the emulated
 * OAuth2 provider):
 *   GET  /emulator/v1/onramp/checkout/<transactionId>   the checkout page (HTML) init_fiat_on_ramp links to
 *   POST /emulator/v1/onramp/checkout/<transactionId>   settle it: form-encoded (the page's buttons; answers HTML)
 *        or JSON (scripts; answers the transaction as JSON) with
 *        {outcome?: COMPLETED (default) | FAILED | CANCELLED, fiatAmount?: "100" (when the intent left it open),
 *         cryptoAmount?: "0.05" (whole coins; default: the emulated quote)}
 *   GET  /emulator/v1/onramp/transactions/<transactionId>  the transaction as JSON (status, amounts, chain credited)
 * A checkout settles once; a second POST answers 400 FAILED_PRECONDITION.
 */
import { Router, type Request } from "express";
import { notFound } from "../../core/errors.js";
import { sendRpcError } from "../../core/http/errors.js";
import { objectBody } from "../../core/http/body.js";
import type { Runtime } from "../../core/runtime.js";
import type { OnRampTransactionRow } from "./repository.js";
import { formatUnits } from "./amounts.js";
import { COINS, type CryptoCurrency } from "./catalog.js";
import { CHECKOUT_PATH } from "./checkout-url.js";
import { renderCheckoutPage, renderSettledPage } from "./checkout-page.js";
import { reportedStatus, settleCheckout } from "./settle.js";

/** The control API's JSON view of a transaction. */
export function transactionView(t: OnRampTransactionRow): Record<string, unknown> {
  const coin = COINS[t.cryptoCurrency as CryptoCurrency];
  return {
    transactionId: t.id,
    organizationId: t.orgId,
    activityId: t.activityId,
    status: reportedStatus(t.status),
    provider: t.provider,
    sandboxMode: t.sandboxMode,
    credentialId: t.credentialId,
    walletAddress: t.walletAddress,
    network: t.network,
    cryptoCurrency: t.cryptoCurrency,
    fiatCurrency: t.fiatCurrency,
    fiatAmount: t.fiatAmount,
    paymentMethod: t.paymentMethod,
    cryptoAmount: t.cryptoAmount,
    cryptoAmountDisplay: t.cryptoAmount === null ? null : formatUnits(BigInt(t.cryptoAmount), coin.decimals),
    caip2: t.caip2,
    note: t.note,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

const isForm = (req: Request) => /^application\/x-www-form-urlencoded\b/i.test(req.headers["content-type"] ?? "");

export function onRampRouter(rt: Runtime): Router {
  const router = Router();
  const find = (id: string) => {
    const t = rt.store.onRampTransactions.byId(id);
    if (!t) throw notFound(`no on-ramp transaction ${id}`);
    return t;
  };

  router.get(`${CHECKOUT_PATH}/:id`, (req, res) => {
    try {
      const t = find(String(req.params.id));
      res.type("html").send(renderCheckoutPage(t, `${CHECKOUT_PATH}/${encodeURIComponent(t.id)}`));
    } catch (err) {
      sendRpcError(res, err);
    }
  });

  router.post(`${CHECKOUT_PATH}/:id`, objectBody({ form: true }), async (req, res) => {
    try {
      const t = await settleCheckout(rt, String(req.params.id), (req.body ?? {}) as Record<string, unknown>);
      if (isForm(req)) res.type("html").send(renderSettledPage(t));
      else res.json({ transaction: transactionView(t) });
    } catch (err) {
      sendRpcError(res, err);
    }
  });

  router.get("/emulator/v1/onramp/transactions/:id", (req, res) => {
    try {
      res.json({ transaction: transactionView(find(String(req.params.id))) });
    } catch (err) {
      sendRpcError(res, err);
    }
  });
  return router;
}
