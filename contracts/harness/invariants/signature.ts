/**
 * signatureVerifies: a `{r, s, v}` signature from sign_raw_payload(s) verifies for the
 * signer's address.
 *
 * args:
 *   signature   {r, s, v} (hex, no 0x) — or r, s, v given separately
 *   address     Ethereum address (secp256k1) or Solana address / 32-byte hex key (ed25519)
 *   curve       secp256k1 (default) | ed25519
 *   payload, encoding (PAYLOAD_ENCODING_HEXADECIMAL | PAYLOAD_ENCODING_TEXT_UTF8),
 *   hashFunction (HASH_FUNCTION_KECCAK256 | HASH_FUNCTION_SHA256 | HASH_FUNCTION_NO_OP | HASH_FUNCTION_NOT_APPLICABLE)
 *   message     instead of payload: an EIP-191 personal message (viem verifyMessage)
 *   typedData   instead of payload: EIP-712 typed data (object or its JSON, as sent with
 *               PAYLOAD_ENCODING_EIP712; viem hashTypedData + recoverAddress)
 *
 * secp256k1 is checked with viem (recoverAddress / verifyMessage); ed25519 with node:crypto
 * (OpenSSL), so neither shares code with the emulator's signer.
 */
import { createPublicKey, verify } from "node:crypto";
import { base58 } from "@scure/base";
import { hashTypedData, isAddressEqual, keccak256, recoverAddress, sha256, verifyMessage, type Hex, type TypedDataDefinition } from "viem";
import { fail, pass, type Invariant, type InvariantOutcome } from "./registry.js";

const hex = (s: unknown, what: string): string => {
  if (typeof s !== "string" || !/^(0x)?([0-9a-fA-F]{2})*$/.test(s)) throw new Error(`${what} must be hex, got ${JSON.stringify(s)}`);
  return s.replace(/^0x/, "").toLowerCase();
};

function payloadBytes(args: Record<string, unknown>): Uint8Array {
  const payload = args.payload;
  if (typeof payload !== "string") throw new Error("payload (string) is required");
  const encoding = String(args.encoding ?? "PAYLOAD_ENCODING_HEXADECIMAL");
  if (encoding === "PAYLOAD_ENCODING_TEXT_UTF8") return new TextEncoder().encode(payload);
  if (encoding === "PAYLOAD_ENCODING_HEXADECIMAL") return Buffer.from(hex(payload, "payload"), "hex");
  throw new Error(`encoding ${encoding} is not supported by signatureVerifies`);
}

function signatureParts(args: Record<string, unknown>): { r: string; s: string; v?: string } {
  const sig = (args.signature && typeof args.signature === "object" ? args.signature : args) as Record<string, unknown>;
  return { r: hex(sig.r, "signature.r").padStart(64, "0"), s: hex(sig.s, "signature.s").padStart(64, "0"), v: sig.v === undefined ? undefined : hex(sig.v, "signature.v") };
}

async function secp256k1(args: Record<string, unknown>): Promise<InvariantOutcome> {
  const address = args.address;
  if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address)) return fail(`address must be an Ethereum address, got ${JSON.stringify(address)}`);
  const { r, s, v } = signatureParts(args);
  if (v === undefined) return fail("signature.v is required for secp256k1");
  const vn = parseInt(v, 16);
  const yParity = vn >= 27 ? vn - 27 : vn;
  if (yParity !== 0 && yParity !== 1) return fail(`signature.v ${v} is not a recovery id`);
  const signature = `0x${r}${s}${yParity === 0 ? "1b" : "1c"}` as Hex;
  if (typeof args.message === "string") {
    const ok = await verifyMessage({ address: address as Hex, message: args.message, signature });
    return ok ? pass(`EIP-191 signature by ${address}`) : fail(`EIP-191 signature does not verify for ${address}`);
  }
  if (args.typedData !== undefined) {
    const typed = (typeof args.typedData === "string" ? JSON.parse(args.typedData) : args.typedData) as TypedDataDefinition;
    const recovered = await recoverAddress({ hash: hashTypedData(typed), signature });
    return isAddressEqual(recovered, address as Hex) ? pass(`EIP-712 signature by ${address}`) : fail(`EIP-712 signature recovers ${recovered}, expected ${address}`);
  }
  const bytes = payloadBytes(args);
  const fn = String(args.hashFunction ?? "HASH_FUNCTION_KECCAK256");
  let hash: Hex;
  if (fn === "HASH_FUNCTION_KECCAK256") hash = keccak256(bytes);
  else if (fn === "HASH_FUNCTION_SHA256") hash = sha256(bytes);
  else if (fn === "HASH_FUNCTION_NO_OP") {
    if (bytes.length !== 32) return fail(`HASH_FUNCTION_NO_OP needs a 32-byte payload, got ${bytes.length} bytes`);
    hash = `0x${Buffer.from(bytes).toString("hex")}`;
  } else return fail(`hashFunction ${fn} does not apply to secp256k1`);
  const recovered = await recoverAddress({ hash, signature });
  return isAddressEqual(recovered, address as Hex) ? pass(`recovers ${address}`) : fail(`signature recovers ${recovered}, expected ${address}`);
}

function ed25519(args: Record<string, unknown>): InvariantOutcome {
  const address = args.address;
  if (typeof address !== "string") return fail("address is required");
  let key: Uint8Array;
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(address)) key = Buffer.from(address.replace(/^0x/, ""), "hex");
  else {
    try {
      key = base58.decode(address);
    } catch {
      return fail(`address ${address} is neither base58 nor 32-byte hex`);
    }
  }
  if (key.length !== 32) return fail(`address ${address} is not a 32-byte ed25519 key`);
  const { r, s } = signatureParts(args);
  const pub = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(key).toString("base64url") }, format: "jwk" });
  const ok = verify(null, payloadBytes(args), pub, Buffer.from(r + s, "hex"));
  return ok ? pass(`ed25519 signature by ${address}`) : fail(`ed25519 signature does not verify for ${address}`);
}

export const signatureVerifies: Invariant = {
  name: "signatureVerifies",
  description: "an ECDSA (secp256k1, checked with viem) or EdDSA (ed25519, checked with OpenSSL) {r,s,v} signature verifies for the given address",
  async check(args) {
    const curve = String(args.curve ?? "secp256k1").toLowerCase().replace(/^curve_/, "");
    if (curve === "secp256k1") return secp256k1(args);
    if (curve === "ed25519") return ed25519(args);
    return fail(`curve ${curve} is not supported (secp256k1, ed25519)`);
  },
};
