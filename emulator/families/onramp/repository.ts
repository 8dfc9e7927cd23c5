/**
 * Fiat on-ramp state: the provider credentials an organization uploads (their secrets sealed,
 * beside the encrypted envelopes the client sent, which list_fiat_on_ramp_credentials returns
 * verbatim) and the on-ramp transactions init_fiat_on_ramp starts and the emulated provider's
 * checkout page settles.
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper, updateRow } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    fiatOnRampCredentials: FiatOnRampCredentials;
    onRampTransactions: OnRampTransactions;
  }
}

export type FiatOnRampCredentialRow = {
  id: string;
  orgId: string;
  provider: string;
  projectId: string | null;
  publishableApiKey: string;
  /** The envelope as the client sent it (encrypted to the on-ramp key; not a plaintext). */
  encryptedSecretApiKey: string;
  /** The decrypted secret, sealed (core/store/seal.ts). */
  secretApiKeySealed: string;
  encryptedPrivateApiKey: string | null;
  privateApiKeySealed: string | null;
  sandboxMode: boolean;
  createdAt: number;
  updatedAt: number;
};

/**
 * Where an on-ramp transaction stands. The API reports PROCESSING (the checkout was submitted
 * and the local chain is being credited) as PENDING.
 */
export type OnRampStatus = "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";

export type OnRampTransactionRow = {
  id: string;
  orgId: string;
  activityId: string;
  provider: string;
  /** The organization's credential the session was opened with, when it has one for the provider and mode. */
  credentialId: string | null;
  walletAddress: string;
  network: string;
  cryptoCurrency: string;
  fiatCurrency: string | null;
  /** Decimal string; null when the intent left the amount to the buyer. */
  fiatAmount: string | null;
  paymentMethod: string | null;
  countryCode: string | null;
  countrySubdivisionCode: string | null;
  sandboxMode: boolean;
  status: OnRampStatus;
  /** Delivered amount in the coin's smallest unit (decimal string), once completed. */
  cryptoAmount: string | null;
  /** The local chain credited, when the network has one. */
  caip2: string | null;
  /** Why nothing was credited on a local chain, or why the transaction failed. */
  note: string | null;
  createdAt: number;
  updatedAt: number;
};

const credentialRows = rowMapper<FiatOnRampCredentialRow>({ bool: ["sandboxMode"] });
const transactionRows = rowMapper<OnRampTransactionRow>({ bool: ["sandboxMode"] });

export class FiatOnRampCredentials {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): FiatOnRampCredentialRow | undefined {
    return credentialRows.read(prep(this.db, "SELECT * FROM fiat_on_ramp_credentials WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  forOrg(orgId: string): FiatOnRampCredentialRow[] {
    return credentialRows.readAll(prep(this.db, "SELECT * FROM fiat_on_ramp_credentials WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  /** The newest credential of the organization for `provider` in that mode (sandbox or live). */
  latestFor(orgId: string, provider: string, sandboxMode: boolean): FiatOnRampCredentialRow | undefined {
    return credentialRows.read(
      prep(this.db, "SELECT * FROM fiat_on_ramp_credentials WHERE org_id = ? AND provider = ? AND sandbox_mode = ? ORDER BY updated_at DESC, rowid DESC LIMIT 1").get(orgId, provider, sandboxMode ? 1 : 0),
    );
  }

  insert(c: FiatOnRampCredentialRow): void {
    insertRow(this.db, "fiat_on_ramp_credentials", credentialRows, c);
  }

  update(id: string, patch: Partial<FiatOnRampCredentialRow>): void {
    updateRow(this.db, "fiat_on_ramp_credentials", credentialRows, id, patch);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM fiat_on_ramp_credentials WHERE id = ?").run(id);
  }
}

export class OnRampTransactions {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): OnRampTransactionRow | undefined {
    return transactionRows.read(prep(this.db, "SELECT * FROM onramp_transactions WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  /** By id alone: the checkout page is addressed by the transaction id the URL carries. */
  byId(id: string): OnRampTransactionRow | undefined {
    return transactionRows.read(prep(this.db, "SELECT * FROM onramp_transactions WHERE id = ?").get(id));
  }

  insert(t: OnRampTransactionRow): void {
    insertRow(this.db, "onramp_transactions", transactionRows, t);
  }

  /** Moves a transaction from `from` to `to` only if it is still in `from`; false when another request got there first. */
  transition(id: string, from: OnRampStatus, to: OnRampStatus, patch: Partial<OnRampTransactionRow>, now: number): boolean {
    const cols = transactionRows.write({ ...patch, status: to, updatedAt: now });
    const names = Object.keys(cols);
    const info = prep(this.db, `UPDATE onramp_transactions SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE id = ? AND status = ?`).run(...Object.values(cols), id, from);
    return info.changes === 1;
  }
}
