/**
 * Secrets, over the enclave secure channel (TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1):
 *  - init_import_secrets mints `numSecrets` single-use ingress target keys, each handed out as a
 *    target message signed by the signer key (the import-bundle envelope: data =
 *    {organizationId, userId, targetPublic}) that @turnkey/crypto `encryptSecretToBundle` checks;
 *  - import_secrets opens each `secretPayload` ({encappedPublic, ciphertext}, HPKE to the named
 *    target key), consumes that key and stores the value sealed, bound to its organization and id;
 *  - export_secrets seals each value to the caller's `targetPublicKey` in the export-bundle
 *    envelope ({encappedPublic, ciphertext, organizationId}) that `decryptSecretBundle` opens.
 * Names are unique within an organization; static properties are immutable and policies read them
 * (`secret.static_properties['kind']`): an export is decided secret by secret and needs every one
 * allowed (core/engine/consensus.ts). Values are never logged.
 */
import { invalidArgument, notFound } from "../../core/errors.js";
import { isInputError } from "../../core/input-error.js";
import { makeExportBundle, makeImportBundle, openEncryptedImportBundle, parseP256PublicKey } from "../../bundles/index.js";
import type { Sealer } from "../../core/store/seal.js";
import type { SecretKeyValue, SecretRow } from "./repository.js";
import { checkName, requireDistinct, requireUuid } from "../../core/vocabulary/lookups.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { defineActivity } from "../../core/vocabulary/define.js";

/** The most ingress keys one init_import_secrets mints (our cap; the service documents none). */
export const MAX_SECRETS_PER_INIT = 100;

type SealedValue = { organizationId: string; secretId: string; value: string };

/** Seals a value bound to its organization and id, so that no stored ciphertext can stand in for another secret's. */
export function sealSecretValue(sealer: Sealer, organizationId: string, secretId: string, value: Uint8Array): string {
  const envelope: SealedValue = { organizationId, secretId, value: Buffer.from(value).toString("base64") };
  return sealer.seal(JSON.stringify(envelope));
}

export function openSecretValue(sealer: Sealer, row: Pick<SecretRow, "orgId" | "id" | "valueSealed">): Uint8Array {
  const envelope = JSON.parse(Buffer.from(sealer.open(row.valueSealed)).toString("utf8")) as SealedValue;
  if (envelope.organizationId !== row.orgId || envelope.secretId !== row.id) throw new Error(`sealed value of secret ${row.id} is bound to another secret`);
  return new Uint8Array(Buffer.from(envelope.value, "base64"));
}

function checkStaticProperties(props: { key?: string; value?: string }[] | undefined, field: string): SecretKeyValue[] {
  const seen = new Set<string>();
  return (props ?? []).map((kv, j) => {
    if (typeof kv.key !== "string" || !kv.key.trim()) throw invalidArgument(`static property key must not be empty`, `${field}[${j}].key`);
    if (typeof kv.value !== "string") throw invalidArgument(`static property ${kv.key} needs a value`, `${field}[${j}].value`);
    if (seen.has(kv.key)) throw invalidArgument(`duplicate static property key ${kv.key}`, `${field}[${j}].key`);
    seen.add(kv.key);
    return { key: kv.key, value: kv.value };
  });
}

function initImportSecrets(ctx: ActivityContext, numSecrets: number): string[] {
  if (!Number.isInteger(numSecrets) || numSecrets < 1 || numSecrets > MAX_SECRETS_PER_INIT)
    throw invalidArgument(`numSecrets must be between 1 and ${MAX_SECRETS_PER_INIT}`, "parameters.numSecrets");
  const { store } = ctx.rt;
  return Array.from({ length: numSecrets }, () => {
    const made = makeImportBundle({ organizationId: ctx.org.id, userId: ctx.caller.user.id, signerKey: ctx.rt.keys.enclave.signer, random: ctx.rt.random });
    store.secrets.insertTarget({ targetPublic: made.targetPublicHex, orgId: ctx.org.id, userId: ctx.caller.user.id, targetKeySealed: store.sealer.seal(made.targetPrivateKey), createdAt: ctx.now });
    made.targetPrivateKey.fill(0);
    return made.importBundle;
  });
}

type ImportParam = { name?: string; secretPayload: string; targetPublicKey: string; staticProperties?: { key?: string; value?: string }[] };

function importSecret(ctx: ActivityContext, p: ImportParam, field: string, namesInRequest: Set<string>): string {
  const { store } = ctx.rt;
  const name = p.name === undefined || p.name === "" ? null : p.name;
  if (name !== null) {
    checkName(name, `${field}.name`);
    if (namesInRequest.has(name) || store.secrets.byName(ctx.org.id, name)) throw invalidArgument(`a secret named ${name} already exists in this organization`, `${field}.name`);
    namesInRequest.add(name);
  }
  const staticProperties = checkStaticProperties(p.staticProperties, `${field}.staticProperties`);
  const target = store.secrets.target(ctx.org.id, p.targetPublicKey.toLowerCase());
  if (!target) throw invalidArgument("no pending ingress target key with this public key in the organization (each key of init_import_secrets is used once)", `${field}.targetPublicKey`);
  const targetKey = store.sealer.open(target.targetKeySealed);
  let value: Uint8Array;
  try {
    value = openEncryptedImportBundle(p.secretPayload, targetKey, target.targetPublic);
  } catch (e) {
    if (isInputError(e)) throw invalidArgument(`secret payload: ${e.message}`, `${field}.secretPayload`);
    throw e;
  } finally {
    targetKey.fill(0);
  }
  store.secrets.deleteTarget(target.targetPublic);
  const id = ctx.rt.random.uuid();
  store.secrets.insert({ id, orgId: ctx.org.id, name, staticProperties, valueSealed: sealSecretValue(store.sealer, ctx.org.id, id, value), createdAt: ctx.now });
  value.fill(0);
  return id;
}

function exportSecret(ctx: ActivityContext, p: { secretId: string; targetPublicKey: string }, field: string): string {
  const { store } = ctx.rt;
  const row = store.secrets.get(ctx.org.id, p.secretId);
  if (!row) throw notFound(`secret not found: ${p.secretId} (${field}.secretId)`);
  try {
    parseP256PublicKey(p.targetPublicKey, "targetPublicKey");
  } catch (e) {
    if (isInputError(e)) throw invalidArgument(e.message, `${field}.targetPublicKey`);
    throw e;
  }
  const value = openSecretValue(store.sealer, row);
  try {
    return makeExportBundle({ plaintext: value, targetPublicKeyHex: p.targetPublicKey, organizationId: ctx.org.id, signerKey: ctx.rt.keys.enclave.signer, random: ctx.rt.random });
  } finally {
    value.fill(0);
  }
}

export const secretOperations = [
  defineActivity("init_import_secrets", {
    policy: { resource: "SECRET", action: "IMPORT", source: "inferred" },
    run(ctx, p) {
      return { enclaveTargetMessages: initImportSecrets(ctx, p.numSecrets) };
    },
  }),

  defineActivity("import_secrets", {
    policy: { resource: "SECRET", action: "IMPORT", source: "inferred" },
    run(ctx, p) {
      if (p.secrets.length === 0) throw invalidArgument("secrets must name at least one secret", "parameters.secrets");
      const names = new Set<string>();
      return { secretIds: p.secrets.map((s, i) => importSecret(ctx, s, `parameters.secrets[${i}]`, names)) };
    },
  }),

  defineActivity("export_secrets", {
    policy: { resource: "SECRET", action: "EXPORT", source: "inferred" },
    // Each secret is decided on its own (the `secret` keyword names it); the batch needs every one allowed.
    subjects: (p) => ({ each: p.secrets.map((s) => ({ secretId: s.secretId })) }),
    run(ctx, p) {
      if (p.secrets.length === 0) throw invalidArgument("secrets must name at least one secret", "parameters.secrets");
      return { secretPayloads: p.secrets.map((s, i) => exportSecret(ctx, s, `parameters.secrets[${i}]`)) };
    },
  }),

  // Beyond the published documents; @turnkey/http 6.6 calls it (deleteSecrets). All or nothing:
  // an unknown id deletes none. Each secret is decided on its own, as on export.
  defineActivity("delete_secrets", {
    policy: { resource: "SECRET", action: "DELETE", source: "inferred" },
    subjects: (p) => ({ each: p.secretIds.map((secretId) => ({ secretId })) }),
    run(ctx, p) {
      if (p.secretIds.length === 0) throw invalidArgument("secretIds must name at least one secret", "parameters.secretIds");
      requireDistinct(p.secretIds, "parameters.secretIds");
      p.secretIds.forEach((id, i) => {
        requireUuid(id, `parameters.secretIds[${i}]`, "secret");
        if (!ctx.rt.store.secrets.get(ctx.org.id, id)) throw notFound(`secret not found: ${id} (parameters.secretIds[${i}])`);
      });
      for (const id of p.secretIds) ctx.rt.store.secrets.delete(ctx.org.id, id);
      return { secretIds: p.secretIds };
    },
  }),
];
