/** Signing: sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2); the V1s sign with the private key `privateKeyId` names. */
import type * as Bitcoin from "bitcoinjs-lib";
import { bitcoin } from "../../signing/bitcoinjs.js";
import { invalidArgument, withField } from "../../core/errors.js";
import type { ResolvedSigner } from "../../core/vocabulary/contexts.js";
import {
  signBitcoinPsbt,
  signEthereumTransaction,
  signRawPayload,
  signRawPayloadOffThread,
  signRawPayloads,
  signRawPayloadsOffThread,
  signSolanaTransaction,
  signTempoTransaction,
  signTronTransaction,
} from "../../signing/index.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { requirePrivateKey } from "./private-keys.js";
import { inOlderFields } from "../../core/vocabulary/older-intents.js";

/** The first signing versions sign with the private key `privateKeyId` names (wallets came later), where V2 takes any signer. */
function withPrivateKey<T>(ctx: ActivityContext, p: { privateKeyId: string }, current: () => T): T {
  requirePrivateKey(ctx, p.privateKeyId, "parameters.privateKeyId");
  return inOlderFields([["parameters.signWith", "parameters.privateKeyId"]], current);
}

const CURVE_FOR_TYPE: Record<string, string> = {
  TRANSACTION_TYPE_ETHEREUM: "CURVE_SECP256K1",
  TRANSACTION_TYPE_TEMPO: "CURVE_SECP256K1",
  TRANSACTION_TYPE_TRON: "CURVE_SECP256K1",
  TRANSACTION_TYPE_BITCOIN: "CURVE_SECP256K1",
  TRANSACTION_TYPE_SOLANA: "CURVE_ED25519",
};

function bitcoinNetwork(addressFormat: string | undefined): Bitcoin.Network {
  if (addressFormat?.includes("_REGTEST_")) return bitcoin.networks.regtest;
  if (addressFormat?.includes("_TESTNET_") || addressFormat?.includes("_SIGNET_")) return bitcoin.networks.testnet;
  return bitcoin.networks.bitcoin;
}

async function signTransaction(signer: ResolvedSigner, type: string, unsigned: string): Promise<string> {
  const { privateKey } = signer.key;
  switch (type) {
    case "TRANSACTION_TYPE_ETHEREUM":
      return signEthereumTransaction(privateKey, unsigned);
    case "TRANSACTION_TYPE_TEMPO":
      return signTempoTransaction(privateKey, unsigned);
    case "TRANSACTION_TYPE_SOLANA":
      return signSolanaTransaction(privateKey, unsigned);
    case "TRANSACTION_TYPE_BITCOIN":
      return signBitcoinPsbt(privateKey, signer.publicKey, unsigned, { network: bitcoinNetwork(signer.addressFormat) });
    case "TRANSACTION_TYPE_TRON":
      return signTronTransaction(privateKey, unsigned);
    default:
      throw invalidArgument(`unsupported transaction type ${type}`, "parameters.type", "UNSUPPORTED_TRANSACTION_TYPE");
  }
}

export const signingOperations = [
  defineActivity("sign_raw_payload", {
    policy: { resource: "PRIVATE_KEY", action: "SIGN", source: "documented", params: [["hash_function", "hashFunction"], ["encoding", "encoding"]] },
    subjects: (p) => ({ signWith: p.signWith, payload: { encoding: p.encoding, payload: p.payload } }),
    olderVersions: {
      ACTIVITY_TYPE_SIGN_RAW_PAYLOAD: {
        params: ({ privateKeyId, ...p }) => ({ ...p, signWith: privateKeyId }),
        run: withPrivateKey,
      },
    },
    run(ctx, p) {
      const signer = withField("parameters", () => ctx.signer(p.signWith));
      // Signing writes nothing: when the server is busy, the signature is made off the event loop (the activity settles after it).
      return withField("parameters", () =>
        ctx.offload(
          () => signRawPayload(signer.key, p.payload, p.encoding, p.hashFunction),
          () => signRawPayloadOffThread(signer.key, p.payload, p.encoding, p.hashFunction),
        ),
      );
    },
  }),

  defineActivity("sign_raw_payloads", {
    policy: { resource: "PRIVATE_KEY", action: "SIGN", source: "documented", params: [["hash_function", "hashFunction"], ["encoding", "encoding"]] },
    subjects: (p) => ({ signWith: p.signWith }),
    run(ctx, p) {
      const signer = withField("parameters", () => ctx.signer(p.signWith));
      const signatures = withField("parameters", () =>
        ctx.offload(
          () => signRawPayloads(signer.key, p.payloads, p.encoding, p.hashFunction),
          () => signRawPayloadsOffThread(signer.key, p.payloads, p.encoding, p.hashFunction),
        ),
      );
      return signatures instanceof Promise ? signatures.then((s) => ({ signatures: s })) : { signatures };
    },
  }),

  defineActivity("sign_transaction", {
    policy: { resource: "PRIVATE_KEY", action: "SIGN", source: "documented", params: [["type", "type"]] },
    subjects: (p) => ({ signWith: p.signWith, transaction: { type: p.type, unsigned: p.unsignedTransaction } }),
    olderVersions: {
      ACTIVITY_TYPE_SIGN_TRANSACTION: {
        params: ({ privateKeyId, ...p }) => ({ ...p, signWith: privateKeyId }),
        // The published table gives `activity.params.type` to V2 only (tkhq/docs features/policies/language.mdx:603).
        policyParams: [],
        run: withPrivateKey,
      },
    },
    run(ctx, p) {
      const signer = withField("parameters", () => ctx.signer(p.signWith));
      const curve = CURVE_FOR_TYPE[p.type];
      if (!curve) throw invalidArgument(`unsupported transaction type ${p.type}`, "parameters.type", "UNSUPPORTED_TRANSACTION_TYPE");
      if (signer.key.curve !== curve) {
        throw invalidArgument(`${p.type} needs a ${curve} key, but signWith ${p.signWith} is ${signer.key.curve}`, "parameters.signWith");
      }
      // Signing writes nothing, so the (possibly asynchronous) signature is made outside the store transaction.
      return withField("parameters", () => signTransaction(signer, p.type, p.unsignedTransaction)).then((signedTransaction) => ({ signedTransaction }));
    },
  }),
];
