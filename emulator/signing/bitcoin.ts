/**
 * sign_transaction TRANSACTION_TYPE_BITCOIN: PSBT hex in, the same PSBT with this key's
 * signatures added out (not finalized). Only inputs that spend this key are signed:
 * P2PKH / P2WPKH of its compressed public key, P2TR key path of its BIP-86 tweaked key,
 * and P2SH / P2WSH whose redeem / witness script contains the public key.
 * Legacy and SegWit v0: SIGHASH_ALL ECDSA into partial_sigs; Taproot: SIGHASH_DEFAULT
 * BIP-340 Schnorr into tap_key_sig.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import type * as Bitcoin from "bitcoinjs-lib";
import { bitcoin } from "./bitcoinjs.js";
import { InputError } from "../core/input-error.js";
import { describeError } from "./error-text.js";
import { decodeHexField, toHex } from "./hex.js";
import { checkInput, type PsbtInputData, type ScriptKind } from "./bitcoin-inputs.js";
import { schnorrSign, tweakKeyPathKey } from "./taproot.js";




const FIELD = "unsignedTransaction";

export type SignBitcoinOptions = {
  /** Network used only to name the key's addresses in error messages (default mainnet). */
  network?: Bitcoin.Network;
};

export function parsePsbtHex(psbtHex: string): Bitcoin.Psbt {
  const bytes = decodeHexField(psbtHex, FIELD);
  try {
    return bitcoin.Psbt.fromBuffer(bytes);
  } catch (e) {
    throw new InputError(`${FIELD}: not a valid PSBT: ${describeError(e)}`, FIELD);
  }
}

export function signBitcoinPsbt(
  privateKey: Uint8Array,
  publicKeyCompressed: Uint8Array,
  psbtHex: string,
  opts: SignBitcoinOptions = {},
): string {
  if (!equalBytes(secp256k1.getPublicKey(privateKey, true), publicKeyCompressed)) {
    throw new Error("signBitcoinPsbt: public key does not belong to the private key");
  }
  const psbt = parsePsbtHex(psbtHex);
  const pkh = bitcoin.crypto.hash160(publicKeyCompressed);
  const tweaked = tweakKeyPathKey(privateKey);
  const internalXOnly = publicKeyCompressed.subarray(1);

  const ecdsaSigner: Bitcoin.Signer = {
    publicKey: publicKeyCompressed,
    sign: (hash) => secp256k1.sign(hash, privateKey, { prehash: false, lowS: true }),
  };
  const taprootSigner: Bitcoin.Signer = {
    publicKey: Uint8Array.of(0x02, ...tweaked.outputKeyXOnly),
    sign: () => {
      throw new Error("ECDSA is not used on a taproot key-path input");
    },
    signSchnorr: (hash) => schnorrSign(hash, tweaked.secretKey),
  };

  const checked = psbt.data.inputs.map((_, i) => checkInput(psbt, i));
  let signed = 0;
  checked.forEach(({ kind, prevout }, i) => {
    const input = psbt.data.inputs[i]!;
    if (input.finalScriptSig || input.finalScriptWitness) return;
    const owner = ownership(kind, prevout.script, input, pkh, publicKeyCompressed, tweaked.outputKeyXOnly);
    if (owner === "none") return;
    if (owner === "ecdsa") {
      if (input.partialSig?.some((p) => equalBytes(p.pubkey, publicKeyCompressed))) {
        signed++;
        return;
      }
      signWith(i, () => psbt.signInput(i, ecdsaSigner, [bitcoin.Transaction.SIGHASH_ALL]), "SIGHASH_ALL");
    } else {
      if (input.tapKeySig) {
        signed++;
        return;
      }
      if (!input.tapInternalKey) psbt.updateInput(i, { tapInternalKey: internalXOnly });
      signWith(
        i,
        () => psbt.signTaprootInput(i, taprootSigner, undefined, [bitcoin.Transaction.SIGHASH_DEFAULT]),
        "SIGHASH_DEFAULT",
      );
    }
    signed++;
  });

  if (signed === 0) {
    const network = opts.network ?? bitcoin.networks.bitcoin;
    const names = [
      bitcoin.payments.p2wpkh({ pubkey: publicKeyCompressed, network }).address,
      bitcoin.payments.p2tr({ internalPubkey: internalXOnly, network }).address,
    ].join(", ");
    throw new InputError(`${FIELD}: no input of this PSBT belongs to the signing key (${names})`, FIELD);
  }
  return toHex(psbt.toBuffer());
}

function signWith(index: number, sign: () => void, sighash: string): void {
  try {
    sign();
  } catch (e) {
    throw new InputError(`${FIELD}: PSBT input ${index} could not be signed with ${sighash}: ${describeError(e)}`, FIELD);
  }
}

function ownership(
  kind: ScriptKind,
  script: Uint8Array,
  input: PsbtInputData,
  pkh: Uint8Array,
  pubkey: Uint8Array,
  outputKeyXOnly: Uint8Array,
): "ecdsa" | "taproot" | "none" {
  switch (kind) {
    case "p2pkh":
      return equalBytes(script.subarray(3, 23), pkh) ? "ecdsa" : "none";
    case "p2wpkh":
      return equalBytes(script.subarray(2, 22), pkh) ? "ecdsa" : "none";
    case "p2tr":
      return equalBytes(script.subarray(2, 34), outputKeyXOnly) ? "taproot" : "none";
    case "p2sh":
      return input.redeemScript && scriptPushes(input.redeemScript, pubkey) ? "ecdsa" : "none";
    case "p2wsh":
      return input.witnessScript && scriptPushes(input.witnessScript, pubkey) ? "ecdsa" : "none";
    case "other":
      return "none";
  }
}

function scriptPushes(script: Uint8Array, pubkey: Uint8Array): boolean {
  const chunks = bitcoin.script.decompile(script);
  return !!chunks?.some((c) => typeof c !== "number" && equalBytes(c, pubkey));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
