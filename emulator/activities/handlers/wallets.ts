/**
 * HD wallets: create_wallet, create_wallet_accounts, update_wallet, delete_wallets,
 * delete_wallet_accounts, over domain/wallets.ts.
 */
import { createWallet, createWalletAccounts, deleteWalletAccounts, deleteWallets, updateWallet } from "../../domain/wallets.js";
import { defineActivity } from "../../operations/define.js";

export const walletOperations = [
  defineActivity("create_wallet", {
    run(ctx, p) {
      return createWallet(ctx, ctx.org.id, p, "parameters");
    },
  }),

  defineActivity("create_wallet_accounts", {
    subjects: (p) => ({ walletId: p.walletId }),
    run(ctx, p) {
      return { addresses: createWalletAccounts(ctx, p.walletId, p.accounts, p.persist ?? true) };
    },
  }),

  defineActivity("update_wallet", {
    subjects: (p) => ({ walletId: p.walletId }),
    run(ctx, p) {
      return { walletId: updateWallet(ctx, p.walletId, p.walletName) };
    },
  }),

  defineActivity("delete_wallets", {
    run(ctx, p) {
      return { walletIds: deleteWallets(ctx, p.walletIds, p.deleteWithoutExport) };
    },
  }),

  defineActivity("delete_wallet_accounts", {
    run(ctx, p) {
      return { walletAccountIds: deleteWalletAccounts(ctx, p.walletAccountIds, p.deleteWithoutExport) };
    },
  }),
];
