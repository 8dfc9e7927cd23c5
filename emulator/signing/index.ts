/** Pure signing library: private key bytes + request fields → the wire result. No storage; the OffThread variants sign on a worker thread. */
export {
  signRawPayload,
  signRawPayloads,
  signRawPayloadOffThread,
  signRawPayloadsOffThread,
  signDigest,
  HASH_FUNCTIONS,
  type Curve,
  type HashFunction,
  type RawSignature,
  type SignatureScheme,
  type SigningKey,
} from "./raw-payload.js";
export { PAYLOAD_ENCODINGS, type PayloadEncoding } from "./payload-encoding.js";
export { signEthereumTransaction } from "./ethereum.js";
export { signTempoTransaction } from "./tempo.js";
export { signSolanaTransaction } from "./solana.js";
export { parseSolanaTransaction, type SolanaTransactionLayout } from "./solana-wire.js";
export { signBitcoinPsbt, parsePsbtHex, type SignBitcoinOptions } from "./bitcoin.js";
export { describePsbt, type PsbtSummary } from "./bitcoin-describe.js";
export { signTronTransaction, tronTransactionId } from "./tron.js";
export { tweakKeyPathKey } from "./taproot.js";
