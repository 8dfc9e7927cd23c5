/**
 * TVC operators whose keys live in an organization wallet, quorum keys, and quorum key shares
 * posted to a deployment:
 *  - create_tvc_operator derives the operator's encryption and signing keys as two CURVE_P256
 *    accounts of a new (walletName) or existing (walletId) wallet;
 *  - create_tvc_quorum_key generates a QuorumOS key pair (a 32-byte master seed), splits the
 *    seed into Shamir shares (threshold of n) and encrypts share i to the i-th operator's
 *    encryption key in QuorumOS's P-256 envelope, as QuorumOS's genesis does; the seed is kept
 *    sealed, the encrypted shares as records;
 *  - post_tvc_quorum_key_share records an operator's share re-encrypted to a provisioning
 *    enclave's ephemeral key, with its approval. No enclave exists to receive it, so the
 *    envelope is checked for form only, and the approval is recorded, not verified.
 * See docs/tvc.md for what is inferred (UNCONFIRMED).
 */
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { p256 } from "@noble/curves/nist.js";
import { invalidArgument, notFound, withField } from "../../core/errors.js";
import { normalizePath } from "../../derivation/index.js";
import { type AccountParams, checkAccounts, deriveAccount, hasAccount, walletOf } from "../wallets/index.js";
import { checkName, requireUuid } from "../../core/vocabulary/lookups.js";
import { defineActivity, defineNotEmulated } from "../../core/vocabulary/define.js";
import { TVC_RUNTIME } from "../../core/vocabulary/not-emulated.js";
import { addAccounts, createWallet, requireWallet } from "../wallets/index.js";
import { requireTvcDeployment } from "./lookups.js";
import { parseHexSignature } from "./keys.js";
import { operatorAccountPaths, operatorKeys, parseP256Point } from "./operator-keys.js";
import { parseQosEnvelope, qosEncrypt, qosPairFromSeed } from "./qos-p256.js";
import { splitSecret } from "./shamir.js";
import { quote } from "../../core/input-error.js";

const HEX = /^(?:0x)?([0-9a-fA-F]{2})+$/;
const MAX_SHARES = 255;

const p256Account = (path: string): AccountParams => ({ curve: "CURVE_P256", pathFormat: "PATH_FORMAT_BIP32", path, addressFormat: "ADDRESS_FORMAT_UNCOMPRESSED" });

export const tvcQuorumKeyOperations = [
  defineActivity("create_tvc_operator", {
    policy: { resource: "TVC_OPERATOR", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const { store, keyring } = ctx.rt;
      checkName(p.operatorName, "parameters.operatorName");
      if (p.walletId && p.walletName) throw invalidArgument("give walletId (an existing wallet) or walletName (a new wallet), not both", "parameters.walletId");
      if (!p.walletId && !p.walletName) throw invalidArgument("parameters.walletId or parameters.walletName is required", "parameters.walletName");
      const base = withField(undefined, () => normalizePath(p.path, "parameters.path"));
      const { encryptPath, signPath } = operatorAccountPaths(base);
      const accounts = checkAccounts([p256Account(encryptPath), p256Account(signPath)], "parameters.accounts");

      let walletId: string;
      if (p.walletId) {
        const wallet = requireWallet(ctx, p.walletId, "parameters.walletId");
        const seed = keyring.seedOf(wallet);
        for (const a of accounts) {
          const d = deriveAccount(seed, a);
          if (hasAccount(ctx.rt, wallet.id, d.curve, d.pathKey, d.addressFormat))
            throw invalidArgument(`wallet ${wallet.id} already has a P-256 account at ${a.path}: choose another base path for this operator`, "parameters.path");
        }
        addAccounts(ctx, wallet, seed, accounts, "parameters.accounts");
        walletId = wallet.id;
      } else {
        walletId = createWallet(ctx, ctx.org.id, { walletName: p.walletName!, accounts }, "parameters").walletId;
      }
      const wallet = walletOf(ctx.rt, ctx.org.id, walletId)!;
      const point = (path: string) => p256.Point.fromBytes(keyring.accountKey(wallet, "CURVE_P256", path).publicKey).toBytes(false);
      const encryptPublicKey = bytesToHex(point(encryptPath));
      const signPublicKey = bytesToHex(point(signPath));
      const operatorId = ctx.rt.random.uuid();
      store.tvc.insertOperator({
        id: operatorId,
        orgId: ctx.org.id,
        name: p.operatorName,
        publicKey: encryptPublicKey + signPublicKey,
        keySource: "ORG_WALLET_ACCOUNT",
        walletId,
        encryptPath,
        signPath,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return { walletId, operatorId, encryptPublicKey, signPublicKey };
    },
  }),

  defineActivity("create_tvc_quorum_key", {
    policy: { resource: "TVC_QUORUM_KEY", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const { store } = ctx.rt;
      const keys = p.operatorEncryptKeys;
      if (!keys.length) throw invalidArgument("parameters.operatorEncryptKeys must list at least two operator encryption keys", "parameters.operatorEncryptKeys");
      if (keys.length > MAX_SHARES) throw invalidArgument(`parameters.operatorEncryptKeys lists ${keys.length} keys; a quorum key has at most ${MAX_SHARES} shares`, "parameters.operatorEncryptKeys");
      const byEncryptKey = new Map(store.tvc.operators(ctx.org.id).map((o) => [operatorKeys(o).encryptPublicKey, o] as const));
      const seen = new Set<string>();
      const operators = keys.map((key, i) => {
        const field = `parameters.operatorEncryptKeys[${i}]`;
        const point = withField(undefined, () => parseP256Point(key, field));
        if (seen.has(point)) throw invalidArgument(`duplicate operator encryption key in parameters.operatorEncryptKeys: ${quote(key)}`, field);
        seen.add(point);
        const operator = byEncryptKey.get(point);
        if (!operator) throw invalidArgument(`no TVC operator of this organization has the encryption key ${quote(key)} (create one with create_tvc_operator or create_tvc_app)`, field);
        return operator;
      });
      const threshold = Number(p.threshold);
      if (!Number.isSafeInteger(threshold) || threshold < 2 || threshold > operators.length)
        throw invalidArgument(`parameters.threshold must be from 2 to the number of operator keys (${operators.length}), got ${p.threshold}`, "parameters.threshold");

      const seed = ctx.rt.random.bytes(32);
      const pair = qosPairFromSeed(seed);
      const shares = splitSecret(seed, operators.length, threshold, (n) => ctx.rt.random.bytes(n));
      const quorumKeyId = ctx.rt.random.uuid();
      store.tvc.insertQuorumKey({
        id: quorumKeyId,
        orgId: ctx.org.id,
        publicKey: bytesToHex(pair.publicKey),
        threshold,
        operatorIds: operators.map((o) => o.id),
        seedSealed: store.sealer.seal(seed),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      const shareIds = operators.map((o, i) => {
        const id = ctx.rt.random.uuid();
        const encryptedShare = bytesToHex(qosEncrypt(hexToBytes(operatorKeys(o).encryptPublicKey), shares[i]!, ctx.rt.random));
        store.tvc.insertQuorumKeyShare({ id, orgId: ctx.org.id, quorumKeyId, operatorId: o.id, encryptedShare, createdAt: ctx.now, updatedAt: ctx.now });
        return id;
      });
      seed.fill(0);
      return { quorumKeyId, quorumPublicKey: bytesToHex(pair.publicKey), shareIds };
    },
  }),

  defineActivity("post_tvc_quorum_key_share", {
    policy: { resource: "TVC_DEPLOYMENT", action: "UPDATE", source: "inferred" },
    run(ctx, p) {
      const { tvc } = ctx.rt.store;
      const d = requireTvcDeployment(ctx.rt.store, ctx.org.id, p.deploymentId, "parameters.deploymentId");
      if (d.deleted) throw invalidArgument(`TVC deployment ${d.id} is deleted: restore it before posting quorum key shares to it`, "parameters.deploymentId");
      const ephemeralPublicKey = withField(undefined, () => parseP256Point(p.ephemeralPublicKeyHex, "parameters.ephemeralPublicKeyHex"));
      const bundle = p.shareApprovalBundle;
      const field = "parameters.shareApprovalBundle";
      requireUuid(bundle.operatorId, `${field}.operatorId`, "TVC operator");
      if (!tvc.operator(ctx.org.id, bundle.operatorId)) throw notFound(`TVC operator not found: ${bundle.operatorId}`);
      const shareSet = tvc.operatorSet(ctx.org.id, tvc.app(ctx.org.id, d.appId)!.shareSetId)!;
      if (!shareSet.operatorIds.includes(bundle.operatorId))
        throw invalidArgument(`TVC operator ${bundle.operatorId} is not in the share set (${shareSet.id}) of this deployment's app`, `${field}.operatorId`);
      if (tvc.provisioningSharesOf(d.id).some((s) => s.operatorId === bundle.operatorId))
        throw invalidArgument(`TVC operator ${bundle.operatorId} has already posted its quorum key share to deployment ${d.id}`, `${field}.operatorId`);
      if (!HEX.test(bundle.reEncryptedShareHex)) throw invalidArgument(`${field}.reEncryptedShareHex must be hex`, `${field}.reEncryptedShareHex`);
      const share = bundle.reEncryptedShareHex.replace(/^0x/, "").toLowerCase();
      try {
        parseQosEnvelope(hexToBytes(share));
      } catch (e) {
        throw invalidArgument(`${field}.reEncryptedShareHex is not a QuorumOS P-256 envelope: ${(e as Error).message}`, `${field}.reEncryptedShareHex`);
      }
      const signature = withField(undefined, () => parseHexSignature(bundle.signature, `${field}.signature`));
      const provisioningShareId = ctx.rt.random.uuid();
      tvc.insertProvisioningShare({
        id: provisioningShareId,
        orgId: ctx.org.id,
        deploymentId: d.id,
        operatorId: bundle.operatorId,
        ephemeralPublicKey,
        reEncryptedShare: share,
        signature,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return { provisioningShareId };
    },
  }),
  defineNotEmulated(
    "re_encrypt_tvc_quorum_key_share",
    `${TVC_RUNTIME}: a hosted operator's share is released only to the ephemeral key of a provisioning enclave whose Nitro attestation document (signed by AWS, over the deployment's manifest) verifies, and no such document exists offline`,
    { policy: { resource: "TVC_QUORUM_KEY", action: "ENCRYPT", source: "inferred" } },
  ),
];
