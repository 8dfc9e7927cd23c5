/**
 * list_fiat_on_ramp_credentials (the organization's credentials, oldest first, with the
 * encrypted envelopes as uploaded: never a plaintext secret) and get_onramp_transaction_status
 * (PENDING until the emulated checkout settles, then COMPLETED, FAILED or CANCELLED). `refresh`
 * changes nothing: the emulated provider is in-process, so the stored status is always current.
 */
import { notFound } from "../../core/errors.js";
import { toTimestamp } from "../../core/clock.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import type { FiatOnRampCredentialRow } from "./repository.js";
import type { Wire } from "../../../contracts/wire.js";
import { reportedStatus } from "./settle.js";
import { invalidArgument } from "../../core/errors.js";

export function renderFiatOnRampCredential(c: FiatOnRampCredentialRow): Wire["v1FiatOnRampCredential"] {
  return {
    fiatOnrampCredentialId: c.id,
    organizationId: c.orgId,
    onrampProvider: c.provider as Wire["v1FiatOnRampCredential"]["onrampProvider"],
    ...(c.projectId !== null ? { projectId: c.projectId } : {}),
    publishableApiKey: c.publishableApiKey,
    encryptedSecretApiKey: c.encryptedSecretApiKey,
    ...(c.encryptedPrivateApiKey !== null ? { encryptedPrivateApiKey: c.encryptedPrivateApiKey } : {}),
    sandboxMode: c.sandboxMode,
    createdAt: toTimestamp(c.createdAt),
    updatedAt: toTimestamp(c.updatedAt),
  };
}

export const fiatOnRampQueryOperations = [
  defineQuery("list_fiat_on_ramp_credentials", {
    run(ctx) {
      return { fiatOnRampCredentials: ctx.rt.store.fiatOnRampCredentials.forOrg(ctx.org.id).map(renderFiatOnRampCredential) };
    },
  }),
  defineQuery("get_onramp_transaction_status", {
    run(ctx, b) {
      if (!b.transactionId) throw invalidArgument("transactionId must be set", "transactionId");
      const t = ctx.rt.store.onRampTransactions.get(ctx.org.id, b.transactionId);
      if (!t) throw notFound(`on-ramp transaction not found: ${b.transactionId}`);
      return { transactionStatus: reportedStatus(t.status) };
    },
  }),
];
