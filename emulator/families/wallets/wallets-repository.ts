import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { countsByOrg, insertRow, rowMapper } from "../../core/store/rows.js";
import { UNIQUE_RULES, uniquely } from "../../core/store/unique.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    wallets: Wallets;
  }
}

export type WalletRow = {
  id: string;
  orgId: string;
  name: string;
  mnemonicSealed: string;
  exported: boolean;
  imported: boolean;
  createdAt: number;
  updatedAt: number;
};

export type WalletAccountRow = {
  seq: number;
  id: string;
  orgId: string;
  walletId: string;
  curve: string;
  path: string;
  /** The path in canonical form (`'` for hardened, no leading zeros): what uniqueness compares. */
  pathKey: string;
  addressFormat: string;
  address: string;
  publicKey: string;
  name: string | null;
  exported: boolean;
  createdAt: number;
  updatedAt: number;
};

const wallet = rowMapper<WalletRow>({ bool: ["exported", "imported"] });

const account = rowMapper<WalletAccountRow>({ bool: ["exported"] });

export class Wallets {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): WalletRow | undefined {
    const r = prep(this.db, "SELECT * FROM wallets WHERE id = ? AND org_id = ?").get(id, orgId);
    return wallet.read(r);
  }

  list(orgId: string): WalletRow[] {
    return (prep(this.db, "SELECT * FROM wallets WHERE org_id = ? ORDER BY created_at, rowid").all(orgId) as unknown[]).map(wallet.one);
  }

  count(orgId: string): number {
    return (prep(this.db, "SELECT COUNT(*) AS n FROM wallets WHERE org_id = ?").get(orgId) as { n: number }).n;
  }

  /** Wallets per organization, every organization at once. */
  countsByOrg(): Map<string, number> {
    return countsByOrg(this.db, "wallets");
  }

  /** Wallet labels are unique within an organization. */
  insert(w: WalletRow): void {
    uniquely(UNIQUE_RULES.wallet, () => UNIQUE_RULES.wallet.error(w.name), () => insertRow(this.db, "wallets", wallet, w));
  }

  update(id: string, patch: Partial<Pick<WalletRow, "name" | "exported">>, now: number): void {
    const name = patch.name;
    if (name !== undefined) {
      uniquely(UNIQUE_RULES.wallet, () => UNIQUE_RULES.wallet.error(name), () => prep(this.db, "UPDATE wallets SET name = ?, updated_at = ? WHERE id = ?").run(name, now, id));
    }
    if (patch.exported !== undefined) prep(this.db, "UPDATE wallets SET exported = ?, updated_at = ? WHERE id = ?").run(patch.exported ? 1 : 0, now, id);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM wallets WHERE id = ?").run(id);
  }

  // --- accounts ---

  account(orgId: string, id: string): WalletAccountRow | undefined {
    const r = prep(this.db, "SELECT * FROM wallet_accounts WHERE id = ? AND org_id = ?").get(id, orgId);
    return account.read(r);
  }

  /** The organization holding wallet account `id`, whichever it is (the service tells a foreign account from a missing one). */
  accountOrgId(id: string): string | undefined {
    const r = prep(this.db, "SELECT org_id FROM wallet_accounts WHERE id = ?").get(id) as { org_id: string } | undefined;
    return r?.org_id;
  }

  /** The organizations holding a wallet account at this address (the chain watcher's balance events go to each). */
  organizationsHolding(address: string): string[] {
    return (prep(this.db, "SELECT DISTINCT org_id AS orgId FROM wallet_accounts WHERE address = ?").all(address) as { orgId: string }[]).map((r) => r.orgId);
  }

  accountByAddress(orgId: string, address: string, walletId?: string): WalletAccountRow | undefined {
    const r = (
      walletId
        ? prep(this.db, "SELECT * FROM wallet_accounts WHERE org_id = ? AND wallet_id = ? AND address = ? ORDER BY seq LIMIT 1").get(orgId, walletId, address)
        : prep(this.db, "SELECT * FROM wallet_accounts WHERE org_id = ? AND address = ? ORDER BY seq LIMIT 1").get(orgId, address)
    );
    return account.read(r);
  }

  accountByPath(walletId: string, pathKey: string): WalletAccountRow | undefined {
    const r = prep(this.db, "SELECT * FROM wallet_accounts WHERE wallet_id = ? AND path_key = ? ORDER BY seq LIMIT 1").get(walletId, pathKey);
    return account.read(r);
  }

  accountExists(walletId: string, curve: string, pathKey: string, addressFormat: string): boolean {
    return !!prep(this.db, "SELECT 1 FROM wallet_accounts WHERE wallet_id = ? AND curve = ? AND path_key = ? AND address_format = ?").get(walletId, curve, pathKey, addressFormat);
  }

  /** Oldest first; `after`/`before` are sequence numbers of cursor accounts. */
  accounts(f: { orgId: string; walletId?: string; after?: number; before?: number; limit?: number }): WalletAccountRow[] {
    const where = ["org_id = ?"];
    const args: unknown[] = [f.orgId];
    if (f.walletId) {
      where.push("wallet_id = ?");
      args.push(f.walletId);
    }
    if (f.after !== undefined) {
      where.push("seq > ?");
      args.push(f.after);
    }
    if (f.before !== undefined) {
      where.push("seq < ?");
      args.push(f.before);
    }
    const backwards = f.before !== undefined && f.after === undefined;
    const limit = f.limit ?? -1;
    const rows = (prep(this.db, `SELECT * FROM wallet_accounts WHERE ${where.join(" AND ")} ORDER BY seq ${backwards ? "DESC" : "ASC"} LIMIT ?`).all(...args, limit) as unknown[]).map(account.one);
    return backwards ? rows.reverse() : rows;
  }

  insertAccount(a: Omit<WalletAccountRow, "seq">): void {
    uniquely(UNIQUE_RULES.walletAccount, () => UNIQUE_RULES.walletAccount.error(a.path), () => insertRow(this.db, "wallet_accounts", account, a));
  }

  markAccountExported(id: string, now: number): void {
    prep(this.db, "UPDATE wallet_accounts SET exported = 1, updated_at = ? WHERE id = ?").run(now, id);
  }

  deleteAccount(id: string): void {
    prep(this.db, "DELETE FROM wallet_accounts WHERE id = ?").run(id);
  }
}
