/** Fee-payer substitution and blockhash replacement, read back by @solana/web3.js (an independent parser). */
import { describe, expect, it } from "vitest";
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedMessage, VersionedTransaction } from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { parseSolanaTransaction } from "./solana-wire.js";
import { rewritten, serializeMessage, signWith } from "./solana-message.js";

const user = Keypair.generate();
const sponsor = Keypair.generate();
const to = Keypair.generate().publicKey;
const blockhash = Keypair.generate().publicKey.toBase58();

function v0(): Uint8Array {
  const message = new TransactionMessage({ payerKey: user.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: to, lamports: 42 })] }).compileToV0Message();
  return new VersionedTransaction(message).serialize();
}

function legacy(): Uint8Array {
  return new Transaction({ feePayer: user.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: to, lamports: 42 })).serialize({ requireAllSignatures: false });
}

describe("solana-message", () => {
  for (const [name, build] of [
    ["v0", v0],
    ["legacy", legacy],
  ] as const) {
    it(`re-serializes a ${name} message byte for byte`, () => {
      const tx = parseSolanaTransaction(build());
      expect(Buffer.from(serializeMessage(tx))).toEqual(Buffer.from(tx.message));
    });

    it(`puts a sponsor in front of a ${name} transaction; web3.js reads the same transfer, both signatures verify`, () => {
      const tx = rewritten(parseSolanaTransaction(build()), { feePayer: sponsor.publicKey.toBytes() });
      const { wire } = signWith(tx, [sponsor.secretKey.subarray(0, 32), user.secretKey.subarray(0, 32)]);
      const read = VersionedTransaction.deserialize(wire);
      const keys = read.message.staticAccountKeys.map((k) => k.toBase58());
      expect(keys.slice(0, 2)).toEqual([sponsor.publicKey.toBase58(), user.publicKey.toBase58()]);
      expect(read.message.header.numRequiredSignatures).toBe(2);
      expect(read.message.isAccountWritable(1)).toBe(true);
      const ix = read.message.compiledInstructions[0]!;
      expect(keys[ix.programIdIndex]).toBe(SystemProgram.programId.toBase58());
      expect(ix.accountKeyIndexes.map((i) => keys[i])).toEqual([user.publicKey.toBase58(), to.toBase58()]);
      const message = read.message.serialize();
      expect(ed25519.verify(read.signatures[0]!, message, sponsor.publicKey.toBytes())).toBe(true);
      expect(ed25519.verify(read.signatures[1]!, message, user.publicKey.toBytes())).toBe(true);
    });
  }

  it("replaces the blockhash and empties the signatures", () => {
    const fresh = Keypair.generate().publicKey;
    const tx = rewritten(parseSolanaTransaction(v0()), { blockhash: fresh.toBytes() });
    const read = VersionedMessage.deserialize(tx.message);
    expect(read.recentBlockhash).toBe(fresh.toBase58());
    expect(tx.signatures.every((s) => s.every((b) => b === 0))).toBe(true);
    expect(new PublicKey(tx.accountKeys[0]!).toBase58()).toBe(user.publicKey.toBase58());
  });

  for (const [name, build] of [
    ["v0", v0],
    ["legacy", legacy],
  ] as const) {
    it(`sponsors a ${name} transaction in one rewrite (fee payer and blockhash); the id signWith answers is the signature web3.js reads first`, () => {
      const fresh = Keypair.generate().publicKey;
      const tx = rewritten(parseSolanaTransaction(build()), { feePayer: sponsor.publicKey.toBytes(), blockhash: fresh.toBytes() });
      const { wire, signature } = signWith(tx, [sponsor.secretKey.subarray(0, 32), user.secretKey.subarray(0, 32)]);
      const read = VersionedTransaction.deserialize(wire);
      expect(read.message.recentBlockhash).toBe(fresh.toBase58());
      expect(read.message.staticAccountKeys.slice(0, 2).map((k) => k.toBase58())).toEqual([sponsor.publicKey.toBase58(), user.publicKey.toBase58()]);
      expect(signature).toBe(base58.encode(read.signatures[0]!));
      const message = read.message.serialize();
      expect(ed25519.verify(read.signatures[0]!, message, sponsor.publicKey.toBytes())).toBe(true);
      expect(ed25519.verify(read.signatures[1]!, message, user.publicKey.toBytes())).toBe(true);
    });
  }

  it("refuses a fee payer that is already an account of the transaction", () => {
    expect(() => rewritten(parseSolanaTransaction(v0()), { feePayer: to.toBytes() })).toThrow(/already an account/);
  });
});
