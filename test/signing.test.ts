/**
 * Signing through the official signer adapters (@turnkey/viem, @turnkey/solana) and raw
 * SDK calls, every signature verified with the chain's own tooling.
 */
import { request } from "node:http";
import { beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { createAccount } from "@turnkey/viem";
import { TurnkeySigner } from "@turnkey/solana";
import { getTypesForEIP712Domain, hashMessage, keccak256, parseEther, parseGwei, recoverAddress, recoverMessageAddress, recoverTransactionAddress, verifyTypedData, type Hex } from "viem";
import { recoverAuthorizationAddress } from "viem/utils";
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import * as bitcoin from "bitcoinjs-lib";
import * as ecc from "@bitcoinerlab/secp256k1";
import bs58 from "bs58";
import { offThreadSignatureCount } from "../emulator/curves/secp256k1-pool.js";
import { httpClient, sdkClient, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

bitcoin.initEccLib(ecc);

const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

const emu = useTestEmulator();
let addresses: Record<string, { address: string; publicKey: string }>;
beforeAll(async () => {
  const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId: emu.info.walletId!, paginationOptions: { limit: "100" } });
  addresses = Object.fromEntries(accounts.map((a) => [`${a.addressFormat}:${a.path}`, { address: a.address, publicKey: a.publicKey! }]));
});

const SOL = () => addresses["ADDRESS_FORMAT_SOLANA:m/44'/501'/0'/0'"]!.address;

describe("Ethereum through @turnkey/viem", () => {
  it("signs messages, typed data, transactions and authorizations that viem verifies", async () => {
    const account = await createAccount({ client: sdkClient(emu), organizationId: emu.info.organizationId, signWith: ANVIL_0 });
    expect(account.address).toBe(ANVIL_0);

    const message = "hello from the emulator";
    const sig = await account.signMessage({ message });
    expect(await recoverMessageAddress({ message, signature: sig })).toBe(ANVIL_0);

    const domain = { name: "Emulator", version: "1", chainId: 1, verifyingContract: "0x0000000000000000000000000000000000000001" as Hex };
    // viem's wallet action adds the EIP712Domain type before handing typed data to an account.
    const typed = {
      domain,
      types: { EIP712Domain: getTypesForEIP712Domain({ domain }), Mail: [{ name: "to", type: "address" }, { name: "contents", type: "string" }] },
      primaryType: "Mail" as const,
      message: { to: "0x0000000000000000000000000000000000000002" as Hex, contents: "hi" },
    };
    const typedSig = await account.signTypedData(typed as never);
    expect(await verifyTypedData({ ...typed, address: ANVIL_0, signature: typedSig } as never)).toBe(true);

    const tx1559 = await account.signTransaction({ type: "eip1559", chainId: 1, nonce: 0, to: "0x0000000000000000000000000000000000000003", value: parseEther("0.1"), gas: 21000n, maxFeePerGas: parseGwei("20"), maxPriorityFeePerGas: parseGwei("1") });
    expect(await recoverTransactionAddress({ serializedTransaction: tx1559 as never })).toBe(ANVIL_0);
    const legacy = await account.signTransaction({ type: "legacy", chainId: 11155111, nonce: 3, to: "0x0000000000000000000000000000000000000003", value: 1n, gas: 21000n, gasPrice: parseGwei("3") });
    expect(await recoverTransactionAddress({ serializedTransaction: legacy as never })).toBe(ANVIL_0);

    const auth = await account.signAuthorization!({ address: "0x0000000000000000000000000000000000000004", chainId: 1, nonce: 7 });
    expect(await recoverAuthorizationAddress({ authorization: auth })).toBe(ANVIL_0);
  });

  it("signs a KECCAK256 raw payload whose {r,s,v} recovers to the account", async () => {
    const payload = "0x" + Buffer.from("raw payload").toString("hex");
    const r = await sdkClient(emu).signRawPayload({ signWith: ANVIL_0, payload, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
    expect(r.r).toMatch(/^[0-9a-f]{64}$/);
    expect(r.s).toMatch(/^[0-9a-f]{64}$/);
    expect(["00", "01"]).toContain(r.v);
    const recovered = await recoverAddress({ hash: keccak256(payload as Hex), signature: { r: `0x${r.r}`, s: `0x${r.s}`, yParity: Number(r.v) } });
    expect(recovered).toBe(ANVIL_0);
    const batch = await sdkClient(emu).signRawPayloads({ signWith: ANVIL_0, payloads: [hashMessage("a"), hashMessage("b")], encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    expect(batch.signatures).toHaveLength(2);
    expect(await recoverAddress({ hash: hashMessage("b"), signature: { r: `0x${batch.signatures![1]!.r}`, s: `0x${batch.signatures![1]!.s}`, yParity: Number(batch.signatures![1]!.v) } })).toBe(ANVIL_0);
  });

  it("with other requests in flight (signatures made on the signing thread), each {r,s,v} recovers to the account and is the one a lone request gets", async () => {
    const client = sdkClient(emu);
    // A request whose body is still arriving keeps another service request open throughout, as under load.
    const held = request(`${emu.url}/public/v1/query/whoami`, { method: "POST", headers: { "content-type": "application/json", "content-length": "100" } });
    held.on("error", () => undefined);
    held.write("{");
    await vi.waitFor(() => expect(emu.runtime.serving!.open).toBe(1));
    onTestFinished(() => void held.destroy());
    const before = offThreadSignatureCount();
    const hashes = Array.from({ length: 16 }, (_, i) => hashMessage(`in flight ${i}`));
    const single = (hash: Hex) => client.signRawPayload({ signWith: ANVIL_0, payload: hash, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    const batch = (i: number) => client.signRawPayloads({ signWith: ANVIL_0, payloads: [hashes[i]!, hashes[(i + 1) % 16]!], encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    const [singles, batches] = await Promise.all([Promise.all(hashes.map(single)), Promise.all(hashes.map((_, i) => batch(i)))]);
    expect(offThreadSignatureCount() - before).toBe(16 + 2 * 16); // every signature of both operations
    for (const [i, r] of singles.entries()) {
      expect(await recoverAddress({ hash: hashes[i]!, signature: { r: `0x${r.r}`, s: `0x${r.s}`, yParity: Number(r.v) } })).toBe(ANVIL_0);
      // RFC 6979: the same digest gives the same signature, on the thread or off it.
      expect(batches[i]!.signatures![0]).toEqual({ r: r.r, s: r.s, v: r.v });
    }
    held.destroy();
    await vi.waitFor(() => expect(emu.runtime.serving!.open).toBe(0));
    const alone = offThreadSignatureCount();
    const lone = await single(hashes[3]!);
    expect(offThreadSignatureCount()).toBe(alone);
    expect({ r: lone.r, s: lone.s, v: lone.v }).toEqual({ r: singles[3]!.r, s: singles[3]!.s, v: singles[3]!.v });
  });
});

describe("Solana through @turnkey/solana", () => {
  it("signs legacy and v0 transfers that web3.js verifies", async () => {
    const signer = new TurnkeySigner({ organizationId: emu.info.organizationId, client: sdkClient(emu) });
    const from = new PublicKey(SOL());
    const to = Keypair.generate().publicKey;
    const blockhash = bs58.encode(sha256(new Uint8Array([1])));
    const legacy = new Transaction({ feePayer: from, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 1000 }));
    const signed = (await signer.signTransaction(legacy, SOL())) as Transaction;
    expect(signed.verifySignatures()).toBe(true);

    const msg = new TransactionMessage({ payerKey: from, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 5 })] }).compileToV0Message();
    const v0 = (await signer.signTransaction(new VersionedTransaction(msg), SOL())) as VersionedTransaction;
    expect(ed25519.verify(v0.signatures[0]!, v0.message.serialize(), from.toBytes())).toBe(true);

    const text = new TextEncoder().encode("sign me");
    const sig = await signer.signMessage(text, SOL());
    expect(ed25519.verify(sig, text, from.toBytes())).toBe(true);
  });
});

describe("Bitcoin PSBTs", () => {
  it("signs the P2WPKH and P2TR inputs of fixture accounts, which bitcoinjs validates and finalizes", async () => {
    const network = bitcoin.networks.testnet;
    const wpkh = addresses["ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH:m/84'/1'/0'/0/0"]!;
    const tr = addresses["ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR:m/86'/1'/0'/0/0"]!;
    const wpkhPub = Buffer.from(wpkh.publicKey, "hex");
    const trInternal = Buffer.from(tr.publicKey, "hex").subarray(1);
    const p2wpkh = bitcoin.payments.p2wpkh({ pubkey: wpkhPub, network });
    const p2tr = bitcoin.payments.p2tr({ internalPubkey: trInternal, network });
    expect(p2wpkh.address).toBe(wpkh.address);
    expect(p2tr.address).toBe(tr.address);

    const psbt = new bitcoin.Psbt({ network });
    psbt.addInput({ hash: "11".repeat(32), index: 0, witnessUtxo: { script: p2wpkh.output!, value: 50_000n } });
    psbt.addInput({ hash: "22".repeat(32), index: 1, witnessUtxo: { script: p2tr.output!, value: 30_000n }, tapInternalKey: trInternal });
    psbt.addOutput({ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", value: 70_000n });

    const c = sdkClient(emu);
    const s1 = await c.signTransaction({ signWith: wpkh.address, unsignedTransaction: psbt.toHex(), type: "TRANSACTION_TYPE_BITCOIN" });
    const s2 = await c.signTransaction({ signWith: tr.address, unsignedTransaction: s1.signedTransaction, type: "TRANSACTION_TYPE_BITCOIN" });
    const signed = bitcoin.Psbt.fromHex(s2.signedTransaction, { network });
    expect(signed.validateSignaturesOfAllInputs((pubkey, msghash, signature) => (pubkey.length === 32 ? ecc.verifySchnorr(msghash, pubkey, signature) : ecc.verify(msghash, pubkey, signature)))).toBe(true);
    const tx = signed.finalizeAllInputs().extractTransaction();
    expect(tx.ins).toHaveLength(2);
  });
});

describe("Tron", () => {
  it("signs raw_data_hex; the signature recovers to the account's key", async () => {
    const tron = (await sdkClient(emu).getWalletAccounts({ walletId: emu.info.walletId!, paginationOptions: { limit: "100" } })).accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_TRON")!;
    const rawData = "0a02c9b02208f5c7d6d5c0b1a2b340f0e4a0c6b8325a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a1541a614f803b6fd780986a42c78ec9c7f77e6ded13c121541e552f6487585c2b58bc2c9bb4492bc1f17132cd018c0843d7090a6c7c6b832";
    const r = await sdkClient(emu).signTransaction({ signWith: tron.address, unsignedTransaction: rawData, type: "TRANSACTION_TYPE_TRON" });
    // Transaction protobuf: field 1 raw_data, field 2 signature (65 bytes r||s||v).
    const bytes = Buffer.from(r.signedTransaction, "hex");
    const sigStart = bytes.length - 65;
    expect(bytes[sigStart - 2]).toBe(0x12);
    const sig = bytes.subarray(sigStart);
    const txId = sha256(Buffer.from(rawData, "hex"));
    const recovered = secp256k1.Signature.fromBytes(sig.subarray(0, 64), "compact").addRecoveryBit(sig[64]! - 27).recoverPublicKey(txId).toBytes(true);
    expect(Buffer.from(recovered).toString("hex")).toBe(tron.publicKey);
  });
});

describe("signing errors", () => {
  it("gives clear 4xx errors and records nothing", async () => {
    const c = httpClient(emu);
    const org = emu.info.organizationId;
    const base = { type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" as const, organizationId: org };
    const cases: [Parameters<typeof c.signTransaction>[0]["parameters"], RegExp][] = [
      [{ signWith: SOL(), unsignedTransaction: "02f8", type: "TRANSACTION_TYPE_ETHEREUM" }, /CURVE_SECP256K1/],
      [{ signWith: ANVIL_0, unsignedTransaction: "zz", type: "TRANSACTION_TYPE_ETHEREUM" }, /unsignedTransaction/],
      [{ signWith: "0x000000000000000000000000000000000000dEaD", unsignedTransaction: "02", type: "TRANSACTION_TYPE_ETHEREUM" }, /could not find/],
    ];
    for (const [parameters, message] of cases) {
      const before = storeCounts(emu);
      await expect(c.signTransaction({ ...base, timestampMs: String(Date.now()), parameters })).rejects.toThrow(message);
      expect(storeCounts(emu)).toEqual(before);
    }
    const before = storeCounts(emu);
    await expect(
      c.signRawPayload({ type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", organizationId: org, timestampMs: String(Date.now()), parameters: { signWith: SOL(), payload: "abcd", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_SHA256" } }),
    ).rejects.toThrow(/hashFunction/);
    expect(storeCounts(emu)).toEqual(before);
  });
});
