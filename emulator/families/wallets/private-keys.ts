/**
 * Non-HD private keys: how a raw key's public halves are derived and stored (used by handlers,
 * import, the auth proxy and fixtures); a key stored fresh or imported, sealed at rest, with
 * its addresses and tags, within the organization's limit; deletion under the export rule.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { p256 } from "@noble/curves/nist.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { documentedError, invalidArgument, notFound, resourceExhausted, withField } from "../../core/errors.js";
import { addressFor, curvesFor, type Curve } from "../../derivation/index.js";
import { compressPoint, publicKeyOf } from "../../curves/index.js";
import type { PrivateKeyRow } from "./private-keys-repository.js";
import { checkName, requireDistinct, requireExported, requireNonEmpty, requireUuid } from "../../core/vocabulary/lookups.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";
import type { RandomBytes } from "../../core/random.js";
import type { Store } from "../../core/store/index.js";
import type { Keyring } from "../../core/keyring.js";

export const MAX_PRIVATE_KEYS_PER_ORG = 1000;

/** The stored public key: uncompressed SEC1 for the ECDSA curves, raw 32 bytes for ed25519. */
export function publicKeysOf(curve: Curve, privateKey: Uint8Array): { compressed: Uint8Array; stored: string } {
  if (curve === "CURVE_ED25519") {
    const key = publicKeyOf(curve, privateKey);
    return { compressed: key, stored: bytesToHex(key) };
  }
  const uncompressed = publicKeyOf(curve, privateKey, false); // one multiplication for both forms
  return { compressed: compressPoint(uncompressed), stored: bytesToHex(uncompressed) };
}

/** A fresh secret key on `curve` drawn from `random` (the instance's `rt.random`). */
export function randomPrivateKey(curve: Curve, random: RandomBytes): Uint8Array {
  const c = curve === "CURVE_ED25519" ? ed25519 : curve === "CURVE_SECP256K1" ? secp256k1 : p256;
  return c.utils.randomSecretKey(random.bytes(c.lengths.seed!));
}

export type PrivateKeyParams = { privateKeyName: string; curve: string; privateKeyTags: string[]; addressFormats: string[] };

/** Stores one private key (fresh or imported); returns its row. */
export function storePrivateKey(ctx: DomainContext, p: PrivateKeyParams, field: string, key?: Uint8Array, imported = false): PrivateKeyRow {
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
  const secret = key ?? randomPrivateKey(curve, ctx.rt.random);
  const k = { id: ctx.rt.random.uuid(), orgId: ctx.org.id, name: p.privateKeyName, curve, secret, addressFormats: p.addressFormats, tags: p.privateKeyTags, imported };
  return insertPrivateKey(store, keyring, k, ctx.now, field);
}

export type NewPrivateKey = { id: string; orgId: string; name: string; curve: Curve; secret: Uint8Array; addressFormats: string[]; tags: string[]; imported: boolean };

/**
 * Stores a private key as given (checked by the caller: storePrivateKey, or a fixture's
 * check): sealed, with its public key, its addresses (an error names `field`) and its tags.
 */
export function insertPrivateKey(store: Store, keyring: Keyring, k: NewPrivateKey, now: number, field: string): PrivateKeyRow {
  const { compressed, stored } = publicKeysOf(k.curve, k.secret);
  const row: PrivateKeyRow = {
    id: k.id,
    orgId: k.orgId,
    name: k.name,
    curve: k.curve,
    privateKeySealed: keyring.sealPrivateKey(k.secret),
    publicKey: stored,
    addresses: k.addressFormats.map((format) => ({ format, address: withField(field, () => addressFor(format, k.curve, compressed)) })),
    exported: false,
    imported: k.imported,
    createdAt: now,
    updatedAt: now,
  };
  store.privateKeys.insert(row);
  for (const t of k.tags) store.tags.addMember(t, row.id);
  return row;
}

export function requirePrivateKey(ctx: DomainContext, id: string, field: string): PrivateKeyRow {
  requireUuid(id, field, "private key");
  const k = ctx.rt.store.privateKeys.get(ctx.org.id, id);
  if (!k) throw notFound(`private key not found: ${id}`);
  return k;
}

/** create_private_keys: fresh keys within the organization's limit, names distinct; returns their rows. */
export function createPrivateKeys(ctx: DomainContext, keys: PrivateKeyParams[]): PrivateKeyRow[] {
  requireNonEmpty(keys, "parameters.privateKeys");
  if (ctx.rt.store.privateKeys.count(ctx.org.id) + keys.length > MAX_PRIVATE_KEYS_PER_ORG) {
    throw resourceExhausted(`organization has reached the maximum of ${MAX_PRIVATE_KEYS_PER_ORG} private keys`);
  }
  requireDistinct(keys.map((k) => k.privateKeyName), "parameters.privateKeys.privateKeyName");
  return keys.map((k, i) => storePrivateKey(ctx, k, `parameters.privateKeys[${i}]`));
}

/** Deletes private keys (and their tag memberships), all or none; returns the ids. */
export function deletePrivateKeys(ctx: DomainContext, ids: string[], deleteWithoutExport: boolean | undefined): string[] {
  const { store } = ctx.rt;
  requireNonEmpty(ids, "parameters.privateKeyIds");
  requireDistinct(ids, "parameters.privateKeyIds");
  const keys = ids.map((id, i) => requirePrivateKey(ctx, id, `parameters.privateKeyIds[${i}]`));
  requireExported(
    keys.map((k) => ({ what: `private key ${k.id}`, exported: k.exported })),
    deleteWithoutExport,
  );
  for (const k of keys) {
    store.tags.removeMemberEverywhere(k.id);
    store.privateKeys.delete(k.id);
  }
  return ids;
}
