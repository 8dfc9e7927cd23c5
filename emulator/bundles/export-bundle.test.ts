import { describe, it, expect } from "vitest";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { Keypair } from "@solana/web3.js";
import { base58 } from "@scure/base";
import { decryptExportBundle, generateP256KeyPair as tkGenerate, PRODUCTION_SIGNER_SIGN_PUBLIC_KEY } from "@turnkey/crypto";
import { makeExportBundle, openExportBundle } from "./export-bundle.js";
import { enclaveKeysFromSeed, enclavePublicKeysHex } from "./enclave-keys.js";

// Published vector: @turnkey/crypto src/__tests__/crypto-test.ts ("decryptExportBundle Tests")
const VECTOR = {
  bundle: JSON.stringify({
    version: "v1.0.0",
    data: "7b22656e6361707065645075626c6963223a2230343434313065633837653566653266666461313561313866613337376132316133633431633334373666383631333362343238306164373631303266343064356462326463353362343730303763636139336166666330613535316464353134333937643039373931636664393233306663613330343862313731663364363738222c2263697068657274657874223a22656662303538626633666634626534653232323330326266326636303738363062343237346232623031616339343536643362613638646135613235363236303030613839383262313465306261663061306465323966353434353461333739613362653664633364386339343938376131353638633764393566396663346239316265663232316165356562383432333361323833323131346431373962646664636631643066376164656231353766343131613439383430222c226f7267616e697a6174696f6e4964223a2266396133316336342d643630342d343265342d396265662d613737333039366166616437227d",
    dataSignature:
      "304502203a7dc258590a637e76f6be6ed1a2080eed5614175060b9073f5e36592bdaf610022100ab9955b603df6cf45408067f652da48551652451b91967bf37dd094d13a7bdd4",
    enclaveQuorumPublic:
      "04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569",
  }),
  privateKey: "ffc6090f14bcf260e5dfe63f45412e60a477bb905956d7cc90195b71c2a544b3",
  organizationId: "f9a31c64-d604-42e4-9bef-a773096afad7",
  mnemonic: "leaf lady until indicate praise final route toast cake minimum insect unknown",
};

const keys = enclaveKeysFromSeed(new Uint8Array(32).fill(7));
const signerHex = enclavePublicKeysHex(keys).signer;
const orgId = "0d6d8d0e-6a8c-4a3b-9d57-1b8f1b1b1b1b";

describe("export bundles", () => {
  it("opens the published export bundle vector (production signer)", () => {
    const pt = openExportBundle(VECTOR.bundle, {
      organizationId: VECTOR.organizationId,
      recipientPrivateKey: hexToBytes(VECTOR.privateKey),
      signerPublicHex: PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
    });
    expect(new TextDecoder().decode(pt)).toBe(VECTOR.mnemonic);
  });

  it("decryptExportBundle returns our mnemonic (returnMnemonic: true)", async () => {
    const target = tkGenerate();
    const mnemonic = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
    const exportBundle = makeExportBundle({ plaintext: mnemonic, targetPublicKeyHex: target.publicKeyUncompressed, organizationId: orgId, signerKey: keys.signer });
    const out = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId: orgId,
      dangerouslyOverrideSignerPublicKey: signerHex,
      returnMnemonic: true,
    });
    expect(out).toBe(mnemonic);
    expect(JSON.parse(exportBundle).version).toBe("v1.0.0");
  });

  it("decryptExportBundle returns our private key as hex and, with keyFormat SOLANA, as a web3.js-compatible secret", async () => {
    const target = tkGenerate();
    const seed = hexToBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    const exportBundle = makeExportBundle({ plaintext: seed, targetPublicKeyHex: target.publicKey, organizationId: orgId, signerKey: keys.signer });
    const common = { exportBundle, embeddedKey: target.privateKey, organizationId: orgId, dangerouslyOverrideSignerPublicKey: signerHex };
    expect(await decryptExportBundle({ ...common, returnMnemonic: false })).toBe(bytesToHex(seed));
    const solana = await decryptExportBundle({ ...common, returnMnemonic: false, keyFormat: "SOLANA" });
    const kp = Keypair.fromSecretKey(base58.decode(solana)); // validates priv ‖ pub consistency
    expect(kp.publicKey.toBytes()).toEqual(ed25519.getPublicKey(seed));
  });

  it("is rejected by the SDK for a different signer key or organization", async () => {
    const target = tkGenerate();
    const exportBundle = makeExportBundle({ plaintext: "x", targetPublicKeyHex: target.publicKey, organizationId: orgId, signerKey: keys.signer });
    const base = { exportBundle, embeddedKey: target.privateKey, returnMnemonic: true };
    await expect(decryptExportBundle({ ...base, organizationId: orgId, dangerouslyOverrideSignerPublicKey: enclavePublicKeysHex(keys).notarizer })).rejects.toThrow();
    await expect(decryptExportBundle({ ...base, organizationId: "other", dangerouslyOverrideSignerPublicKey: signerHex })).rejects.toThrow();
  });
});
