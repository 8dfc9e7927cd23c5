import { keccak256, recoverAddress, serializeSignature, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { Account, Transaction } from "viem/tempo";
import { describe, expect, it } from "vitest";
import { InputError } from "../core/input-error.js";
import { signTempoTransaction } from "./tempo.js";
import { SECP_KEY, SECP_KEY_HEX } from "./test-keys.fixture.js";

const address = privateKeyToAccount(`0x${SECP_KEY_HEX}`).address;
const tempoAccount = Account.fromSecp256k1(`0x${SECP_KEY_HEX}`);

const tx: Transaction.TransactionSerializableTempo = {
  type: "tempo",
  chainId: 42431,
  nonce: 3,
  nonceKey: 5n,
  gas: 100000n,
  maxFeePerGas: 2n * 10n ** 10n,
  maxPriorityFeePerGas: 10n ** 9n,
  feeToken: "0x20c0000000000000000000000000000000000001",
  calls: [
    { to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", value: 0n, data: "0xa9059cbb" },
    { to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", data: "0x" },
  ],
};

describe("signTempoTransaction", () => {
  it("produces the same signed bytes as viem's Tempo secp256k1 account", async () => {
    const unsigned = await Transaction.serialize(tx);
    expect(unsigned.startsWith("0x76")).toBe(true);
    const signed = await signTempoTransaction(SECP_KEY, unsigned.slice(2));
    expect(`0x${signed}`).toBe(await tempoAccount.signTransaction(tx));

    const decoded = Transaction.deserialize(`0x${signed}` as `0x76${string}`) as Transaction.TransactionSerializableTempo;
    const envelope = decoded.signature as { type: string; signature: { r: bigint; s: bigint; yParity: number } };
    expect(envelope.type).toBe("secp256k1");
    const sig = serializeSignature({
      r: `0x${envelope.signature.r.toString(16).padStart(64, "0")}`,
      s: `0x${envelope.signature.s.toString(16).padStart(64, "0")}`,
      yParity: envelope.signature.yParity,
    });
    expect(await recoverAddress({ hash: keccak256(unsigned), signature: sig })).toBe(address);
  });

  it("rejects non-Tempo bytes, garbage and already-signed transactions", async () => {
    const signed = await tempoAccount.signTransaction(tx);
    for (const [input, text] of [
      ["02c0", /0x76/],
      ["76zz", /not valid hex/],
      ["76c0", /parse/],
      [signed.slice(2), /already carries a sender signature/],
    ] as const) {
      const err = await signTempoTransaction(SECP_KEY, input as Hex).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toMatch(text);
    }
  });
});
