import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { InputError } from "../core/input-error.js";
import { signSolanaTransaction } from "./solana.js";
import { ED_KEY } from "./test-keys.fixture.js";

const ours = Keypair.fromSeed(ED_KEY);
const other = Keypair.fromSeed(new Uint8Array(32).fill(7));
const stranger = Keypair.fromSeed(new Uint8Array(32).fill(9));
const blockhash = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function legacyTx(): Transaction {
  const tx = new Transaction({ feePayer: ours.publicKey, recentBlockhash: blockhash });
  tx.add(SystemProgram.transfer({ fromPubkey: ours.publicKey, toPubkey: stranger.publicKey, lamports: 1000 }));
  tx.add(SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: stranger.publicKey, lamports: 5 }));
  return tx;
}

function v0Tx(lookup?: AddressLookupTableAccount): VersionedTransaction {
  const msg = new TransactionMessage({
    payerKey: other.publicKey,
    recentBlockhash: blockhash,
    instructions: [
      SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: stranger.publicKey, lamports: 1 }),
      SystemProgram.transfer({ fromPubkey: ours.publicKey, toPubkey: new PublicKey(new Uint8Array(32).fill(3)), lamports: 2 }),
    ],
  }).compileToV0Message(lookup ? [lookup] : []);
  return new VersionedTransaction(msg);
}

function expectInvalid(input: string, text: RegExp) {
  let err: unknown;
  try {
    signSolanaTransaction(ED_KEY, input);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InputError);
  expect((err as InputError).path).toBe("unsignedTransaction");
  expect((err as InputError).message).toMatch(text);
}

describe("signSolanaTransaction", () => {
  it("fills only our slot of a legacy transaction; web3.js verifies all signatures", () => {
    const tx = legacyTx();
    tx.partialSign(other);
    const unsigned = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
    const signed = Transaction.from(Buffer.from(signSolanaTransaction(ED_KEY, hex(unsigned)), "hex"));
    expect(signed.verifySignatures()).toBe(true);
    expect(signed.signatures.find((s) => s.publicKey.equals(other.publicKey))!.signature).toEqual(
      tx.signatures.find((s) => s.publicKey.equals(other.publicKey))!.signature,
    );
    // Same bytes as web3.js signing with our key (ed25519 is deterministic).
    const reference = legacyTx();
    reference.sign(ours, other);
    expect(signed.serialize()).toEqual(reference.serialize());
  });

  it("signs a v0 transaction with a lookup table and leaves the other slot empty", () => {
    const lookup = new AddressLookupTableAccount({
      key: new PublicKey(new Uint8Array(32).fill(5)),
      state: {
        deactivationSlot: BigInt("18446744073709551615"),
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: [stranger.publicKey, new PublicKey(new Uint8Array(32).fill(3))],
      },
    });
    const tx = v0Tx(lookup);
    expect(tx.message.addressTableLookups).toHaveLength(1);
    const signedHex = signSolanaTransaction(ED_KEY, `0x${hex(tx.serialize())}`);
    const signed = VersionedTransaction.deserialize(Buffer.from(signedHex, "hex"));
    const keys = signed.message.staticAccountKeys;
    const ourIdx = keys.findIndex((k) => k.equals(ours.publicKey));
    const otherIdx = keys.findIndex((k) => k.equals(other.publicKey));
    expect(otherIdx).toBe(0);
    expect(signed.signatures[otherIdx]).toEqual(new Uint8Array(64));
    // Reference: web3.js signs the same message with our key.
    const reference = v0Tx(lookup);
    reference.sign([ours]);
    expect(signed.signatures[ourIdx]).toEqual(reference.signatures[ourIdx]);
    expect(signed.message.serialize()).toEqual(tx.message.serialize());
  });

  it("rejects a key that is not a required signer", () => {
    const tx = new Transaction({ feePayer: other.publicKey, recentBlockhash: blockhash });
    tx.add(SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: ours.publicKey, lamports: 1 }));
    expectInvalid(hex(tx.serialize({ requireAllSignatures: false })), /is not a required signer/);
  });

  it("rejects malformed bytes", () => {
    const good = hex(v0Tx().serialize());
    expectInvalid(good.slice(0, -2), /malformed Solana transaction: truncated/);
    expectInvalid(`${good}00`, /trailing bytes/);
    expect(good.slice(0, 2)).toBe("02");
    expectInvalid(`01${good.slice(2)}`, /malformed/);
    expectInvalid("", /empty/);
    expectInvalid("xyz0", /not valid hex/);
    // Version 1 messages do not exist.
    const bytes = Buffer.from(good, "hex");
    bytes[1 + 2 * 64] = 0x81;
    expectInvalid(bytes.toString("hex"), /unsupported message version 1/);
  });

  it("rejects a program id taken from an address lookup table", () => {
    const lookup = new AddressLookupTableAccount({
      key: new PublicKey(new Uint8Array(32).fill(5)),
      state: { deactivationSlot: BigInt("18446744073709551615"), lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [stranger.publicKey] },
    });
    const tx = v0Tx(lookup);
    const msg = tx.message;
    const staticCount = msg.staticAccountKeys.length;
    // Point the first instruction's program id at the first looked-up address.
    const bytes = Buffer.from(tx.serialize());
    const msgStart = 1 + tx.signatures.length * 64;
    const firstIxOffset = msgStart + 1 + 3 + 1 + staticCount * 32 + 32 + 1;
    expect(bytes[firstIxOffset]).toBe(msg.compiledInstructions[0]!.programIdIndex);
    bytes[firstIxOffset] = staticCount;
    expectInvalid(bytes.toString("hex"), /program id comes from an address lookup table/);
  });
});
