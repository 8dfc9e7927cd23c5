/** Non-HD private keys: create_private_keys (V2) and delete_private_keys. */
import { documentedError, invalidArgument, notFound, resourceExhausted, withField } from "../../errors.js";
import { newId } from "../../ids.js";
import { addressFor, curvesFor, type Curve } from "../../chains/index.js";
import { checkName, requireDistinct, requireUuid } from "../lookups.js";
import type { PrivateKeyRow } from "../../store/private-keys.js";
import type { ActivityContext } from "../types.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";
import { publicKeysOf, randomPrivateKey } from "../../domain/private-keys.js";

export { publicKeysOf };

export const MAX_PRIVATE_KEYS_PER_ORG = 1000;

export type PrivateKeyParams = { privateKeyName: string; curve: string; privateKeyTags: string[]; addressFormats: string[] };

/** Stores one private key (fresh or imported); returns its row. */
export function storePrivateKey(ctx: ActivityContext, p: PrivateKeyParams, field: string, key?: Uint8Array, imported = false): PrivateKeyRow {
  const { store, keyring } = ctx.rt;
  checkName(p.privateKeyName, `${field}.privateKeyName`);
  if (store.privateKeys.byName(ctx.org.id, p.privateKeyName)) throw invalidArgument(`private key name already in use: ${p.privateKeyName}`, `${field}.privateKeyName`);
  const curve = p.curve as Curve;
  requireDistinct(p.addressFormats, `${field}.addressFormats`);
  p.addressFormats.forEach((f, i) => {
    if (!withField(`${field}.addressFormats[${i}]`, () => curvesFor(f)).includes(curve)) throw documentedError("INVALID_ADDRESS_FORMAT", `${f} for curve ${curve}`, `${field}.addressFormats[${i}]`);
  });
  p.privateKeyTags.forEach((t, i) => {
    if (!store.tags.get(ctx.org.id, t, "TAG_TYPE_PRIVATE_KEY")) throw invalidArgument(`private key tag not found: ${t}`, `${field}.privateKeyTags[${i}]`);
  });
  const secret = key ?? randomPrivateKey(curve);
  const { compressed, stored } = publicKeysOf(curve, secret);
  const row: PrivateKeyRow = {
    id: newId(),
    orgId: ctx.org.id,
    name: p.privateKeyName,
    curve,
    privateKeySealed: keyring.sealPrivateKey(secret),
    publicKey: stored,
    addresses: p.addressFormats.map((format) => ({ format, address: withField(field, () => addressFor(format, curve, compressed)) })),
    exported: false,
    imported,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  store.privateKeys.insert(row);
  for (const t of p.privateKeyTags) store.tags.addMember(t, row.id);
  return row;
}

export function requirePrivateKey(ctx: ActivityContext, id: string, field: string): PrivateKeyRow {
  requireUuid(id, field, "private key");
  const k = ctx.rt.store.privateKeys.get(ctx.org.id, id);
  if (!k) throw notFound(`private key not found: ${id}`);
  return k;
}

export const privateKeyOperations = [
  defineActivity("create_private_keys", {
    policy: { resource: "PRIVATE_KEY", action: "CREATE", source: "documented" },
    arrayLimits: { privateKeys: ALLOWANCE.privateKeysPerOrganization },
    run(ctx, p) {
      if (!p.privateKeys.length) throw invalidArgument("privateKeys must not be empty", "parameters.privateKeys");
      if (ctx.rt.store.privateKeys.count(ctx.org.id) + p.privateKeys.length > MAX_PRIVATE_KEYS_PER_ORG) {
        throw resourceExhausted(`organization has reached the maximum of ${MAX_PRIVATE_KEYS_PER_ORG} private keys`);
      }
      requireDistinct(p.privateKeys.map((k) => k.privateKeyName), "parameters.privateKeys.privateKeyName");
      const rows = p.privateKeys.map((k, i) => storePrivateKey(ctx, k, `parameters.privateKeys[${i}]`));
      return { privateKeys: rows.map((r) => ({ privateKeyId: r.id, addresses: r.addresses })) };
    },
  }),

  defineActivity("delete_private_keys", {
    policy: { resource: "PRIVATE_KEY", action: "DELETE", source: "documented" },
    run(ctx, p) {
      if (!p.privateKeyIds.length) throw invalidArgument("privateKeyIds must not be empty", "parameters.privateKeyIds");
      requireDistinct(p.privateKeyIds, "parameters.privateKeyIds");
      const keys = p.privateKeyIds.map((id, i) => requirePrivateKey(ctx, id, `parameters.privateKeyIds[${i}]`));
      for (const k of keys) {
        if (!k.exported && !p.deleteWithoutExport) {
          throw invalidArgument(`private key ${k.id} has not been exported; export it first or set deleteWithoutExport to delete it anyway`, "parameters.deleteWithoutExport", "WALLET_ACCOUNT_NOT_EXPORTED");
        }
      }
      for (const k of keys) {
        ctx.rt.store.tags.removeMemberEverywhere(k.id);
        ctx.rt.store.privateKeys.delete(k.id);
      }
      return { privateKeyIds: p.privateKeyIds };
    },
  }),
];
