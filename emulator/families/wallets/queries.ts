/** Reads of wallets, wallet accounts, private keys and private-key tags. */
import { invalidArgument, notFound, withField } from "../../core/errors.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import { normalizePath } from "../../derivation/index.js";
import { renderPrivateKey, renderWallet, renderWalletAccount } from "./views.js";
import { renderTag } from "../../core/views/users.js";
import { pageLimit } from "../../core/vocabulary/pagination.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { defineQuery } from "../../core/vocabulary/define.js";

function wallet(ctx: QueryContext, id: string, field = "walletId") {
  requireUuid(id, field, "wallet");
  const w = ctx.rt.store.wallets.get(ctx.org.id, id);
  if (!w) throw notFound(`wallet not found: ${id}`);
  return w;
}

function accountCursor(ctx: QueryContext, id: string | undefined, field: string): number | undefined {
  if (!id) return undefined;
  const a = ctx.rt.store.wallets.account(ctx.org.id, id);
  if (!a) throw invalidArgument(`cursor wallet account not found: ${id}`, field);
  return a.seq;
}

export const walletQueryOperations = [
  defineQuery("get_wallet", {
    run(ctx, b) {
      return { wallet: renderWallet(wallet(ctx, b.walletId)) };
    },
  }),

  defineQuery("list_wallets", {
    run(ctx) {
      return { wallets: ctx.rt.store.wallets.list(ctx.org.id).map(renderWallet) };
    },
  }),

  defineQuery("get_wallet_account", {
    run(ctx, b) {
      const w = wallet(ctx, b.walletId);
      if (!b.address && !b.path) throw invalidArgument("either address or path is required", "address");
      const a = b.address ? ctx.rt.store.wallets.accountByAddress(ctx.org.id, b.address, w.id) : ctx.rt.store.wallets.accountByPath(w.id, withField(undefined, () => normalizePath(b.path!, "path")));
      if (!a) throw notFound(`wallet account not found in wallet ${w.id}: ${b.address ?? b.path}`);
      return { account: renderWalletAccount(a) };
    },
  }),

  defineQuery("list_wallet_accounts", {
    run(ctx, b) {
      if (b.walletId) wallet(ctx, b.walletId);
      const p = b.paginationOptions ?? {};
      const rows = ctx.rt.store.wallets.accounts({
        orgId: ctx.org.id,
        walletId: b.walletId,
        limit: pageLimit(p.limit),
        after: accountCursor(ctx, p.after, "paginationOptions.after"),
        before: accountCursor(ctx, p.before, "paginationOptions.before"),
      });
      const wallets = new Map<string, ReturnType<typeof ctx.rt.store.wallets.get>>();
      const details = (id: string) => {
        if (!wallets.has(id)) wallets.set(id, ctx.rt.store.wallets.get(ctx.org.id, id));
        return wallets.get(id);
      };
      return { accounts: rows.map((a) => renderWalletAccount(a, b.includeWalletDetails ? details(a.walletId) : undefined)) };
    },
  }),

  defineQuery("get_private_key", {
    run(ctx, b) {
      requireUuid(b.privateKeyId, "privateKeyId", "private key");
      const k = ctx.rt.store.privateKeys.get(ctx.org.id, b.privateKeyId);
      if (!k) throw notFound(`private key not found: ${b.privateKeyId}`);
      return { privateKey: renderPrivateKey(k, ctx.rt.store.tags.tagsOf(k.id)) };
    },
  }),

  defineQuery("list_private_keys", {
    run(ctx) {
      return { privateKeys: ctx.rt.store.privateKeys.list(ctx.org.id).map((k) => renderPrivateKey(k, ctx.rt.store.tags.tagsOf(k.id))) };
    },
  }),

  defineQuery("list_private_key_tags", {
    run(ctx) {
      return { privateKeyTags: ctx.rt.store.tags.list(ctx.org.id, "TAG_TYPE_PRIVATE_KEY").map(renderTag) };
    },
  }),
];
