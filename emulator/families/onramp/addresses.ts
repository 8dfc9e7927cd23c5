/**
 * Destination address checks per network family, with independent, well-kept decoders
 * (@scure/base, @noble/hashes) rather than chain libraries, so that starting a checkout
 * loads no chain engine:
 *  - EVM: 0x + 40 hex; a mixed-case address must carry a valid EIP-55 checksum;
 *  - Solana: base58 of a 32-byte public key;
 *  - Bitcoin: bech32 (v0) / bech32m (v1+) segwit addresses with hrp `bc` or `tb`, or
 *    base58check P2PKH / P2SH with version 0x00 / 0x05 or 0x6f / 0xc4. Mainnet and testnet
 *    are both taken in either mode: @turnkey/react-wallet-kit opens sandbox checkouts (its
 *    default) for whatever Bitcoin account the wallet has.
 */
import { base58, bech32, bech32m, createBase58check } from "@scure/base";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { InputError, quote } from "../../core/input-error.js";
import type { NetworkInfo } from "./catalog.js";

const b58check = createBase58check(sha256);

function checkEvm(address: string): void {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new InputError(`must be a 0x-prefixed 20-byte hex address, got ${quote(address)}`);
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return;
  const hash = bytesToHex(keccak_256(utf8ToBytes(body.toLowerCase())));
  for (let i = 0; i < 40; i++) {
    const c = body[i]!;
    if (/[a-f]/i.test(c) && (parseInt(hash[i]!, 16) >= 8 ? c !== c.toUpperCase() : c !== c.toLowerCase())) throw new InputError(`has an invalid EIP-55 checksum: ${address}`);
  }
}

function checkSolana(address: string): void {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    throw new InputError(`must be a base58 Solana address, got ${quote(address)}`);
  }
  if (bytes.length !== 32) throw new InputError(`must be a 32-byte base58 Solana address, got ${bytes.length} bytes`);
}

function checkBitcoin(address: string): void {
  if (/^(bc|tb)1/i.test(address)) {
    const lower = address.toLowerCase();
    if (address !== lower && address !== address.toUpperCase()) throw new InputError(`mixes upper and lower case, which a bech32 address may not: ${address}`);
    for (const codec of [bech32, bech32m]) {
      try {
        const { words } = codec.decode(lower as `${string}1${string}`);
        const version = words[0]!;
        const program = codec.fromWords(words.slice(1));
        const isV0 = version === 0 && codec === bech32 && (program.length === 20 || program.length === 32);
        const isV1plus = version >= 1 && version <= 16 && codec === bech32m && program.length >= 2 && program.length <= 40;
        if (isV0 || isV1plus) return;
      } catch {
        // try the other encoding
      }
    }
    throw new InputError(`is not a valid segwit address: ${address}`);
  }
  let payload: Uint8Array;
  try {
    payload = b58check.decode(address);
  } catch {
    throw new InputError(`must be a Bitcoin address (segwit bc1…/tb1… or base58check), got ${quote(address)}`);
  }
  if (payload.length !== 21 || ![0x00, 0x05, 0x6f, 0xc4].includes(payload[0]!)) throw new InputError(`must be a Bitcoin P2PKH or P2SH address (mainnet or testnet), got ${address}`);
}

/** Throws an InputError (no path: the caller names the field) when `address` is not one of `network`'s. */
export function checkDestinationAddress(address: string, network: NetworkInfo): void {
  if (!address) throw new InputError("must be set");
  if (network.addressKind === "evm") checkEvm(address);
  else if (network.addressKind === "solana") checkSolana(address);
  else checkBitcoin(address);
}
