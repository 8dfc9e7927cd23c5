/**
 * HD wallets: create_wallet, create_wallet_accounts, update_wallet, delete_wallets,
 * delete_wallet_accounts, over wallets.ts.
 */
import { createWallet, createWalletAccounts, deleteWalletAccounts, deleteWallets, updateWallet } from "./wallets.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { addressDerivations } from "../app-proofs/index.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const walletOperations = [
  defineActivity("create_wallet", {
    policy: { resource: "WALLET", action: "CREATE", source: "documented" },
    arrayLimits: { accounts: ALLOWANCE.accountsPerRequest },
    appProofs: (intent, result, a) => addressDerivations(a.orgId, result.walletId, result.addresses, intent.accounts),
    run(ctx, p) {
      return createWallet(ctx, ctx.org.id, p, "parameters");
    },
  }),

  defineActivity("create_wallet_accounts", {
    policy: { resource: "WALLET", action: "CREATE", source: "documented" },
    arrayLimits: { accounts: ALLOWANCE.accountsPerRequest },
    subjects: (p) => ({ walletId: p.walletId }),
    appProofs: (intent, result, a) => addressDerivations(a.orgId, intent.walletId, result.addresses, intent.accounts),
    run(ctx, p) {
      return { addresses: createWalletAccounts(ctx, p.walletId, p.accounts, p.persist ?? true) };
    },
  }),

  defineActivity("update_wallet", {
    policy: { resource: "WALLET", action: "UPDATE", source: "documented", params: [["wallet_id", "walletId"]] },
    subjects: (p) => ({ walletId: p.walletId }),
    run(ctx, p) {
      return { walletId: updateWallet(ctx, p.walletId, p.walletName) };
    },
  }),

  defineActivity("delete_wallets", {
    policy: { resource: "WALLET", action: "DELETE", source: "documented" },
    run(ctx, p) {
      return { walletIds: deleteWallets(ctx, p.walletIds, p.deleteWithoutExport) };
    },
  }),

  defineActivity("delete_wallet_accounts", {
    policy: { resource: "WALLET", action: "DELETE", source: "documented" },
    run(ctx, p) {
      return { walletAccountIds: deleteWalletAccounts(ctx, p.walletAccountIds, p.deleteWithoutExport) };
    },
  }),
];
