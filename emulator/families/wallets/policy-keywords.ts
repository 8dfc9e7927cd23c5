/**
 * What the policy language sees of the keys an activity touches (`wallet`, `private_key`,
 * `wallet_account`): the wallet, private key or account its entry names (`subjects`), then the
 * key its `signWith` names, which takes their place. Absent rows leave their keyword out.
 */
import { privateKeyContext, walletAccountContext, walletContext } from "../../policy/index.js";
import type { Runtime } from "../../core/runtime.js";
import type { KeywordInput } from "../../core/hooks.js";
import type { PrivateKeyRow } from "./private-keys-repository.js";

export function walletKeywords(rt: Runtime, { org, subjects, signer }: KeywordInput): Record<string, unknown> {
  const { store } = rt;
  const out: Record<string, unknown> = {};
  const privateKey = (k: PrivateKeyRow) =>
    privateKeyContext({ privateKeyId: k.id, privateKeyName: k.name, privateKeyTags: store.tags.tagsOf(k.id), imported: k.imported, exported: k.exported });
  if (subjects.walletId) {
    const w = store.wallets.get(org.id, subjects.walletId);
    if (w) out.wallet = walletContext({ walletId: w.id, walletName: w.name, imported: w.imported, exported: w.exported });
  }
  if (subjects.privateKeyId) {
    const k = store.privateKeys.get(org.id, subjects.privateKeyId);
    if (k) out.private_key = privateKey(k);
  }
  if (subjects.address) out.wallet_account = walletAccountContext(subjects.address);
  const named = subjects.signWith ? signer(subjects.signWith) : undefined;
  if (named?.account && named.wallet) {
    out.wallet_account = walletAccountContext(named.account.address);
    out.wallet = walletContext({ walletId: named.wallet.id, walletName: named.wallet.name, imported: named.wallet.imported, exported: named.wallet.exported });
  }
  if (named?.privateKey) out.private_key = privateKey(named.privateKey);
  return out;
}
