/**
 * Export and import through HPKE bundles signed by the signer key:
 * export_wallet, export_private_key, export_wallet_account (each marks what it exported),
 * init_import_wallet / import_wallet and init_import_private_key / import_private_key (the
 * pending target key of each user is kept sealed and used once).
 */
import { invalidArgument, notFound, withField } from "../../core/errors.js";
import { deriveKey, type Curve } from "../../derivation/index.js";
import {
  makeExportBundle,
  makeImportBundle,
  openEncryptedImportBundle,
  parseImportedPrivateKey,
  parseImportedWallet,
  parseP256PublicKey,
} from "../../bundles/index.js";
import { requireUser } from "../../core/vocabulary/lookups.js";
import { createWallet, requireWallet } from "./wallets.js";
import { requirePrivateKey, storePrivateKey } from "./private-keys.js";
import type { ImportTargetRow } from "./import-targets.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { addressDerivations } from "../app-proofs/index.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

function exportTo(ctx: ActivityContext, plaintext: Uint8Array | string, targetPublicKey: string): string {
  return withField("parameters", () => {
    parseP256PublicKey(targetPublicKey, "targetPublicKey");
    return makeExportBundle({ plaintext, targetPublicKeyHex: targetPublicKey, organizationId: ctx.org.id, signerKey: ctx.rt.keys.enclave.signer, random: ctx.rt.random });
  });
}

function initImport(ctx: ActivityContext, userId: string, kind: ImportTargetRow["kind"]): string {
  const { store } = ctx.rt;
  const user = requireUser(store, ctx.org.id, userId, "parameters.userId");
  const made = makeImportBundle({ organizationId: ctx.org.id, userId: user.id, signerKey: ctx.rt.keys.enclave.signer, random: ctx.rt.random });
  store.importTargets.put({ userId: user.id, kind, orgId: ctx.org.id, targetKeySealed: store.sealer.seal(made.targetPrivateKey), targetPublic: made.targetPublicHex, createdAt: ctx.now });
  return made.importBundle;
}

/** Opens an import's encrypted bundle with the user's pending target key, which it consumes. */
function openImport(ctx: ActivityContext, userId: string, kind: ImportTargetRow["kind"], encryptedBundle: string): Uint8Array {
  const { store } = ctx.rt;
  const user = requireUser(store, ctx.org.id, userId, "parameters.userId");
  const target = store.importTargets.get(user.id, kind);
  if (!target || target.orgId !== ctx.org.id)
    throw invalidArgument(`no pending import for this user: call init_import_${kind} first`, "parameters.encryptedBundle");
  const pt = withField("parameters", () => openEncryptedImportBundle(encryptedBundle, store.sealer.open(target.targetKeySealed), target.targetPublic));
  store.importTargets.delete(user.id, kind);
  return pt;
}

export const exportImportOperations = [
  defineActivity("export_wallet", {
    policy: { resource: "WALLET", action: "EXPORT", source: "documented", params: [["target_public_key", "targetPublicKey"]] },
    subjects: (p) => ({ walletId: p.walletId }),
    run(ctx, p) {
      const wallet = requireWallet(ctx, p.walletId, "parameters.walletId");
      if (p.language && p.language !== "MNEMONIC_LANGUAGE_ENGLISH") throw invalidArgument(`unsupported mnemonic language ${p.language}`, "parameters.language");
      const exportBundle = exportTo(ctx, ctx.rt.keyring.mnemonicOf(wallet), p.targetPublicKey);
      ctx.rt.store.wallets.update(wallet.id, { exported: true }, ctx.now);
      return { walletId: wallet.id, exportBundle };
    },
  }),

  defineActivity("export_private_key", {
    policy: { resource: "PRIVATE_KEY", action: "EXPORT", source: "documented", params: [["target_public_key", "targetPublicKey"]] },
    subjects: (p) => ({ privateKeyId: p.privateKeyId }),
    run(ctx, p) {
      const key = requirePrivateKey(ctx, p.privateKeyId, "parameters.privateKeyId");
      const exportBundle = exportTo(ctx, ctx.rt.keyring.privateKeyOf(key), p.targetPublicKey);
      ctx.rt.store.privateKeys.markExported(key.id, ctx.now);
      return { privateKeyId: key.id, exportBundle };
    },
  }),

  defineActivity("export_wallet_account", {
    policy: { resource: "WALLET", action: "EXPORT", source: "documented", params: [["target_public_key", "targetPublicKey"]] },
    subjects: (p) => ({ address: p.address }),
    run(ctx, p) {
      const { store, keyring } = ctx.rt;
      const account = store.wallets.accountByAddress(ctx.org.id, p.address);
      if (!account) throw notFound(`wallet account not found: ${p.address}`);
      const wallet = store.wallets.get(ctx.org.id, account.walletId)!;
      const { privateKey } = deriveKey(keyring.seedOf(wallet), account.curve as Curve, account.path, { cache: keyring.nodeCache(wallet.id) });
      const exportBundle = exportTo(ctx, privateKey, p.targetPublicKey);
      store.wallets.markAccountExported(account.id, ctx.now);
      return { address: account.address, exportBundle };
    },
  }),

  defineActivity("init_import_wallet", {
    policy: { resource: "WALLET", action: "IMPORT", source: "documented" },
    run(ctx, p) {
      return { importBundle: initImport(ctx, p.userId, "wallet") };
    },
  }),

  defineActivity("import_wallet", {
    policy: { resource: "WALLET", action: "IMPORT", source: "documented" },
    arrayLimits: { accounts: ALLOWANCE.accountsPerRequest },
    appProofs: (intent, result, a) => addressDerivations(a.orgId, result.walletId, result.addresses, intent.accounts),
    run(ctx, p) {
      const plaintext = openImport(ctx, p.userId, "wallet", p.encryptedBundle);
      const mnemonic = withField("parameters.encryptedBundle", () => parseImportedWallet(plaintext));
      return createWallet(ctx, ctx.org.id, { walletName: p.walletName, accounts: p.accounts, mnemonicLength: mnemonic.split(" ").length }, "parameters", mnemonic);
    },
  }),

  defineActivity("init_import_private_key", {
    policy: { resource: "PRIVATE_KEY", action: "IMPORT", source: "documented" },
    run(ctx, p) {
      return { importBundle: initImport(ctx, p.userId, "private_key") };
    },
  }),

  defineActivity("import_private_key", {
    policy: { resource: "PRIVATE_KEY", action: "IMPORT", source: "documented" },
    run(ctx, p) {
      const plaintext = openImport(ctx, p.userId, "private_key", p.encryptedBundle);
      const key = withField("parameters.encryptedBundle", () => parseImportedPrivateKey(plaintext));
      const row = storePrivateKey(ctx, { privateKeyName: p.privateKeyName, curve: p.curve, privateKeyTags: [], addressFormats: p.addressFormats }, "parameters", key, true);
      return { privateKeyId: row.id, addresses: row.addresses };
    },
  }),
];
