/**
 * transactionSignedBy: a signed Ethereum transaction from sign_transaction is the unsigned
 * one with a signature added, and that signature recovers the signer's address.
 *
 * args:
 *   signedTransaction     hex (with or without 0x), as in signTransactionResult.signedTransaction
 *   unsignedTransaction   the hex that was sent (with or without 0x)
 *   address               the Ethereum address that should have signed
 *
 * Both are parsed with viem (parseTransaction); the signer is recovered with viem
 * (recoverTransactionAddress), so nothing is shared with the emulator's signer.
 */
import { isAddressEqual, parseTransaction, recoverTransactionAddress, serializeTransaction, type Hex, type TransactionSerializable } from "viem";
import { fail, pass, type Invariant } from "./registry.js";

const hex0x = (v: unknown, what: string): Hex => {
  if (typeof v !== "string" || !/^(0x)?[0-9a-fA-F]+$/.test(v)) throw new Error(`${what} must be hex, got ${JSON.stringify(v)}`);
  return (v.startsWith("0x") ? v : `0x${v}`).toLowerCase() as Hex;
};

export const transactionSignedBy: Invariant = {
  name: "transactionSignedBy",
  description: "a signed Ethereum transaction carries the unsigned one unchanged and its signature recovers the given address (viem)",
  async check(args) {
    const signed = hex0x(args.signedTransaction, "signedTransaction");
    const unsigned = hex0x(args.unsignedTransaction, "unsignedTransaction");
    const address = args.address;
    if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address)) return fail(`address must be an Ethereum address, got ${JSON.stringify(address)}`);
    const parsed = parseTransaction(signed);
    if (parsed.r === undefined || parsed.s === undefined) return fail("the signed transaction carries no signature");
    const { r: _r, s: _s, v: _v, yParity: _y, ...fields } = parsed;
    const stripped = serializeTransaction(fields as TransactionSerializable);
    if (stripped.toLowerCase() !== unsigned) return fail(`the signed transaction's fields differ from the unsigned transaction (${stripped} vs ${unsigned})`);
    const recovered = await recoverTransactionAddress({ serializedTransaction: signed as Parameters<typeof recoverTransactionAddress>[0]["serializedTransaction"] });
    return isAddressEqual(recovered, address as Hex) ? pass(`${parsed.type} transaction signed by ${address}`) : fail(`transaction signature recovers ${recovered}, expected ${address}`);
  },
};
