/**
 * Fiat on-ramp activities: provider credentials (create / update / delete; their secrets
 * arrive encrypted with @turnkey/crypto's encryptOnRampSecret to the instance's on-ramp key,
 * are opened here and kept sealed) and init_fiat_on_ramp, which opens a checkout on the
 * emulated provider (checkout-url.ts, checkout-page.ts) and returns its URL and the transaction id that
 * get_onramp_transaction_status reports on.
 */
import { invalidArgument, notFound } from "../../core/errors.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import type { FiatOnRampCredentialRow } from "./repository.js";
import { openOnRampSecret } from "./secrets.js";
import { checkField } from "./field.js";
import { checkInitIntent } from "./intent-rules.js";
import { checkoutUrl } from "./checkout-url.js";
import { signMoonPayUrl } from "./url-signature.js";
import { PROVIDER_LABEL, type Provider } from "./catalog.js";

function requireCredential(ctx: ActivityContext, id: string): FiatOnRampCredentialRow {
  if (!id) throw invalidArgument("fiatOnrampCredentialId must be set", "parameters.fiatOnrampCredentialId");
  requireUuid(id, "parameters.fiatOnrampCredentialId", "fiat on-ramp credential");
  const c = ctx.rt.store.fiatOnRampCredentials.get(ctx.org.id, id);
  if (!c) throw notFound(`fiat on-ramp credential not found: ${id}`);
  return c;
}

type CredentialFields = {
  onrampProvider: Provider;
  projectId?: string | undefined;
  publishableApiKey: string;
  encryptedSecretApiKey: string;
  encryptedPrivateApiKey?: string | undefined;
};

/** Checks and opens what a create or update carries; returns the columns it sets (secrets sealed). */
function credentialColumns(ctx: ActivityContext, p: CredentialFields) {
  if (!p.publishableApiKey.trim()) throw invalidArgument("publishableApiKey must be set", "parameters.publishableApiKey");
  const coinbase = p.onrampProvider === "FIAT_ON_RAMP_PROVIDER_COINBASE";
  if (coinbase && !p.projectId) throw invalidArgument("projectId is required for Coinbase credentials", "parameters.projectId");
  if (coinbase && !p.encryptedPrivateApiKey) throw invalidArgument("encryptedPrivateApiKey is required for Coinbase credentials", "parameters.encryptedPrivateApiKey");
  const key = ctx.rt.keys.onRamp;
  const secret = checkField("parameters.encryptedSecretApiKey", () => openOnRampSecret(p.encryptedSecretApiKey, key));
  const privateKey = p.encryptedPrivateApiKey ? checkField("parameters.encryptedPrivateApiKey", () => openOnRampSecret(p.encryptedPrivateApiKey!, key)) : null;
  const sealer = ctx.rt.store.sealer;
  return {
    provider: p.onrampProvider,
    projectId: p.projectId || null,
    publishableApiKey: p.publishableApiKey,
    encryptedSecretApiKey: p.encryptedSecretApiKey,
    secretApiKeySealed: sealer.seal(secret),
    encryptedPrivateApiKey: p.encryptedPrivateApiKey || null,
    privateApiKeySealed: privateKey === null ? null : sealer.seal(privateKey),
  };
}

export const fiatOnRampOperations = [
  defineActivity("create_fiat_on_ramp_credential", {
    policy: { resource: "ON_RAMP_CREDENTIALS", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const id = ctx.rt.random.uuid();
      ctx.rt.store.fiatOnRampCredentials.insert({ id, orgId: ctx.org.id, ...credentialColumns(ctx, p), sandboxMode: p.sandboxMode === true, createdAt: ctx.now, updatedAt: ctx.now });
      return { fiatOnRampCredentialId: id };
    },
  }),

  defineActivity("update_fiat_on_ramp_credential", {
    policy: { resource: "ON_RAMP_CREDENTIALS", action: "UPDATE", source: "inferred" },
    run(ctx, p) {
      const cur = requireCredential(ctx, p.fiatOnrampCredentialId);
      ctx.rt.store.fiatOnRampCredentials.update(cur.id, { ...credentialColumns(ctx, p), updatedAt: ctx.now });
      return { fiatOnRampCredentialId: cur.id };
    },
  }),

  defineActivity("delete_fiat_on_ramp_credential", {
    policy: { resource: "ON_RAMP_CREDENTIALS", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      const cur = requireCredential(ctx, p.fiatOnrampCredentialId);
      ctx.rt.store.fiatOnRampCredentials.delete(cur.id);
      return { fiatOnRampCredentialId: cur.id };
    },
  }),

  defineActivity("init_fiat_on_ramp", {
    policy: { resource: "FIAT_TRANSACTION", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      checkInitIntent(p);
      const sandboxMode = p.sandboxMode === true;
      const credential = ctx.rt.store.fiatOnRampCredentials.latestFor(ctx.org.id, p.onrampProvider, sandboxMode);
      let onRampUrlSignature: string | undefined;
      if (p.urlForSignature) {
        if (!credential) {
          throw invalidArgument(
            `urlForSignature: the organization has no ${PROVIDER_LABEL[p.onrampProvider]} ${sandboxMode ? "sandbox" : "live"} credential whose secret key could sign it (create_fiat_on_ramp_credential)`,
            "parameters.urlForSignature",
          );
        }
        onRampUrlSignature = signMoonPayUrl(p.urlForSignature, ctx.rt.store.sealer.openText(credential.secretApiKeySealed));
      }
      const id = ctx.rt.random.uuid();
      const row = {
        id,
        orgId: ctx.org.id,
        activityId: ctx.activityId,
        provider: p.onrampProvider,
        credentialId: credential?.id ?? null,
        walletAddress: p.walletAddress,
        network: p.network,
        cryptoCurrency: p.cryptoCurrencyCode,
        fiatCurrency: p.fiatCurrencyCode ?? null,
        fiatAmount: p.fiatCurrencyAmount || null,
        paymentMethod: p.paymentMethod ?? null,
        countryCode: p.countryCode || null,
        countrySubdivisionCode: p.countrySubdivisionCode || null,
        sandboxMode,
        status: "PENDING" as const,
        cryptoAmount: null,
        caip2: null,
        note: null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.rt.store.onRampTransactions.insert(row);
      return {
        onRampUrl: checkoutUrl(ctx.rt.urls.baseUrl, row, credential?.publishableApiKey),
        onRampTransactionId: id,
        ...(onRampUrlSignature !== undefined ? { onRampUrlSignature } : {}),
      };
    },
  }),
];
