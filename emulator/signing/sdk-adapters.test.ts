/**
 * The official adapters (@turnkey/viem, @turnkey/solana) fed our results through a stand-in
 * for the SDK client, so the wire formats are checked by the code that consumes them.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { TurnkeySigner } from "@turnkey/solana";
import { createAccount } from "@turnkey/viem";
import {
  createWalletClient,
  custom,
  recoverTransactionAddress,
  verifyMessage,
  verifyTypedData,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mainnet } from "viem/chains";
import { recoverAuthorizationAddress } from "viem/utils";
import { describe, expect, it } from "vitest";
import { signEthereumTransaction } from "./ethereum.js";
import { signRawPayload, signRawPayloads, type SigningKey } from "./raw-payload.js";
import { signSolanaTransaction } from "./solana.js";
import { ED_KEY, SECP_KEY, SECP_KEY_HEX } from "./test-keys.fixture.js";

const completed = { id: "activity-1", status: "ACTIVITY_STATUS_COMPLETED" };

/** Mimics the non-HTTP SDK client: flattened activity results. */
function fakeClient(key: SigningKey) {
  return {
    async signRawPayload(p: { payload: string; encoding: string; hashFunction: string }) {
      return { activity: completed, ...signRawPayload(key, p.payload, p.encoding, p.hashFunction) };
    },
    async signRawPayloads(p: { payloads: string[]; encoding: string; hashFunction: string }) {
      return { activity: completed, signatures: signRawPayloads(key, p.payloads, p.encoding, p.hashFunction) };
    },
    async signTransaction(p: { unsignedTransaction: string; type: string }) {
      const signedTransaction =
        p.type === "TRANSACTION_TYPE_SOLANA"
          ? signSolanaTransaction(key.privateKey, p.unsignedTransaction)
          : signEthereumTransaction(key.privateKey, p.unsignedTransaction);
      return { activity: completed, signedTransaction };
    },
  };
}

describe("@turnkey/viem account over our signatures", async () => {
  const expected = privateKeyToAccount(`0x${SECP_KEY_HEX}`).address;
  const account = await createAccount({
    client: fakeClient({ curve: "CURVE_SECP256K1", privateKey: SECP_KEY }) as never,
    organizationId: "org",
    signWith: expected,
  });
  const wallet = createWalletClient({
    account,
    chain: mainnet,
    transport: custom({ request: async () => { throw new Error("no RPC in unit tests"); } }),
  });

  it("signMessage", async () => {
    const signature = await wallet.signMessage({ message: "gm" });
    expect(await verifyMessage({ address: expected, message: "gm", signature })).toBe(true);
  });

  it("signTypedData (EIP712 encoding)", async () => {
    const typed = {
      domain: { name: "Permit", version: "1", chainId: 1, verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3" },
      types: { Permit: [{ name: "owner", type: "address" }, { name: "value", type: "uint256" }] },
      primaryType: "Permit",
      message: { owner: expected, value: 10n ** 30n },
    } as const;
    const signature = await wallet.signTypedData(typed);
    expect(await verifyTypedData({ address: expected, ...typed, signature })).toBe(true);
  });

  it("signAuthorization (EIP7702 encoding)", async () => {
    const authorization = await account.signAuthorization!({
      contractAddress: "0x1234567890123456789012345678901234567890",
      chainId: 1,
      nonce: 3,
    });
    expect(await recoverAuthorizationAddress({ authorization })).toBe(expected);
  });

  it("signTransaction (EIP-1559 and legacy)", async () => {
    for (const tx of [
      { type: "eip1559", chainId: 1, nonce: 1, gas: 21000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n, to: expected, value: 1n },
      { type: "legacy", chainId: 1, nonce: 2, gas: 21000n, gasPrice: 2n, to: expected, value: 1n },
    ] as const) {
      const serializedTransaction = await account.signTransaction(tx);
      expect(await recoverTransactionAddress({ serializedTransaction: serializedTransaction as never })).toBe(expected);
    }
  });
});

describe("@turnkey/solana TurnkeySigner over our signatures", () => {
  const kp = Keypair.fromSeed(ED_KEY);
  const address = kp.publicKey.toBase58();
  const signer = new TurnkeySigner({ organizationId: "org", client: fakeClient({ curve: "CURVE_ED25519", privateKey: ED_KEY }) as never });
  const blockhash = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";
  const transfer = () =>
    new Transaction({ feePayer: kp.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: new PublicKey(new Uint8Array(32).fill(2)), lamports: 9 }),
    );

  it("signTransaction (sign_transaction)", async () => {
    const signed = (await signer.signTransaction(transfer(), address)) as Transaction;
    expect(signed.verifySignatures()).toBe(true);
  });

  it("signTransaction with a v0 transaction", async () => {
    const tx = new VersionedTransaction(
      new TransactionMessage({ payerKey: kp.publicKey, recentBlockhash: blockhash, instructions: transfer().instructions }).compileToV0Message(),
    );
    const signed = (await signer.signTransaction(tx, address)) as VersionedTransaction;
    expect(ed25519.verify(signed.signatures[0]!, signed.message.serialize(), kp.publicKey.toBytes())).toBe(true);
  });

  it("addSignature and signAllTransactions (raw payloads, NOT_APPLICABLE)", async () => {
    const one = transfer();
    await signer.addSignature(one, address);
    expect(one.verifySignatures()).toBe(true);
    const many = [transfer(), transfer()];
    many[1]!.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: kp.publicKey, lamports: 1 }));
    const signed = (await signer.signAllTransactions(many, address)) as Transaction[];
    for (const t of signed) expect(t.verifySignatures()).toBe(true);
  });

  it("signMessage", async () => {
    const msg = new TextEncoder().encode("hello solana");
    const sig = await signer.signMessage(msg, address);
    expect(ed25519.verify(sig, msg, kp.publicKey.toBytes())).toBe(true);
  });
});
