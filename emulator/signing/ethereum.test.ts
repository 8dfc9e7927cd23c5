import {
  fromRlp,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  toRlp,
  type Hex,
  type TransactionSerializable,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { InputError } from "../core/input-error.js";
import { signEthereumTransaction } from "./ethereum.js";
import { SECP_KEY, SECP_KEY_HEX } from "./test-keys.fixture.js";

const account = privateKeyToAccount(`0x${SECP_KEY_HEX}`);
const to = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

async function roundTrip(tx: TransactionSerializable) {
  const unsigned = serializeTransaction(tx);
  const signed = signEthereumTransaction(SECP_KEY, unsigned.slice(2));
  expect(signed).toMatch(/^[0-9a-f]+$/);
  // Oracle 1: viem's own local signer gives the identical bytes (both RFC 6979, low-S).
  expect(`0x${signed}`).toBe(await account.signTransaction(tx));
  // Oracle 2: the signer recovered from the signed transaction is our address.
  expect(await recoverTransactionAddress({ serializedTransaction: `0x${signed}` as never })).toBe(account.address);
  return parseTransaction(`0x${signed}` as Hex);
}

describe("signEthereumTransaction", () => {
  it("legacy with chainId applies EIP-155 v", async () => {
    const parsed = await roundTrip({ type: "legacy", chainId: 137, nonce: 3, gasPrice: 10n ** 9n, gas: 21000n, to, value: 1n });
    expect([137n * 2n + 35n, 137n * 2n + 36n]).toContain(parsed.v);
  });

  it("legacy without chainId gets pre-EIP-155 v = 27/28", async () => {
    const parsed = await roundTrip({ type: "legacy", nonce: 0, gasPrice: 1n, gas: 21000n, to, value: 5n });
    expect([27n, 28n]).toContain(parsed.v);
    expect(parsed.chainId).toBeUndefined();
  });

  it("EIP-2930", async () => {
    await roundTrip({
      type: "eip2930",
      chainId: 1,
      nonce: 1,
      gasPrice: 2n,
      gas: 50000n,
      to,
      accessList: [{ address: to, storageKeys: [`0x${"00".repeat(31)}01`] }],
    });
  });

  it("EIP-1559 (input accepted with or without 0x)", async () => {
    const tx: TransactionSerializable = {
      type: "eip1559",
      chainId: 8453,
      nonce: 42,
      maxFeePerGas: 3n * 10n ** 9n,
      maxPriorityFeePerGas: 10n ** 9n,
      gas: 100000n,
      to,
      value: 10n ** 18n,
      data: "0xa9059cbb",
    };
    await roundTrip(tx);
    const unsigned = serializeTransaction(tx);
    expect(signEthereumTransaction(SECP_KEY, unsigned)).toBe(signEthereumTransaction(SECP_KEY, unsigned.slice(2)));
  });

  it("EIP-4844 bare tx_payload_body", async () => {
    const parsed = await roundTrip({
      type: "eip4844",
      chainId: 1,
      nonce: 0,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 1n,
      maxFeePerBlobGas: 5n,
      gas: 21000n,
      to,
      blobVersionedHashes: [`0x01${"ab".repeat(31)}`],
    });
    expect(parsed.type).toBe("eip4844");
  });

  it("EIP-7702 with a signed authorization list", async () => {
    const authorization = await account.signAuthorization({ contractAddress: to, chainId: 1, nonce: 8 });
    const parsed = await roundTrip({
      type: "eip7702",
      chainId: 1,
      nonce: 7,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 1n,
      gas: 80000n,
      to: account.address,
      authorizationList: [authorization],
    });
    expect(parsed.authorizationList).toHaveLength(1);
  });
});

describe("signEthereumTransaction rejections", () => {
  function expectInvalid(hex: string, text: RegExp) {
    let err: unknown;
    try {
      signEthereumTransaction(SECP_KEY, hex);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).kind).toBe("invalid");
    expect((err as InputError).message).toMatch(text);
    expect((err as InputError).path).toBe("unsignedTransaction");
  }

  it("rejects an already-signed transaction", async () => {
    const signed = await account.signTransaction({ type: "eip1559", chainId: 1, nonce: 0, maxFeePerGas: 2n, gas: 21000n, to });
    expectInvalid(signed.slice(2), /already signed/);
  });

  it("rejects the EIP-4844 network wrapper", () => {
    const body = serializeTransaction({
      type: "eip4844",
      chainId: 1,
      nonce: 0,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 1n,
      maxFeePerBlobGas: 5n,
      gas: 21000n,
      to,
      blobVersionedHashes: [`0x01${"ab".repeat(31)}`],
    });
    const fields = parseRlpList(body);
    const blob = `0x${"00".repeat(131072)}` as Hex;
    const commitment = `0x${"c0".padEnd(96, "0")}` as Hex;
    const proof = `0x${"c0".padEnd(96, "0")}` as Hex;
    const wrapper = `0x03${toRlp([fields, [blob], [commitment], [proof]]).slice(2)}`;
    expectInvalid(wrapper, /network wrapper/);
  });

  it("rejects garbage, unknown types and Tempo bytes", () => {
    expectInvalid("zz", /not valid hex/);
    expectInvalid("", /empty/);
    expectInvalid("02c0", /parse/);
    expectInvalid("05c0", /unsupported Ethereum transaction type 0x05/);
    expectInvalid("76c0", /TRANSACTION_TYPE_TEMPO/);
  });
});

/** The RLP field list of a typed transaction (after its type byte). */
function parseRlpList(typed: Hex): Hex[] {
  return fromRlp(`0x${typed.slice(4)}` as Hex, "hex") as Hex[];
}
