/**
 * App proofs: activities asked for them (`generateAppProofs`) carry one ADDRESS_DERIVATION
 * proof per derived address, which @turnkey/crypto's verifyAppProofSignature accepts;
 * list_app_proofs reads them back; boot proofs stay 501 (they need a real enclave).
 */
import { describe, expect, it } from "vitest";
import { encryptWalletToBundle, verifyAppProofSignature } from "@turnkey/crypto";
import { mnemonicToAccount } from "viem/accounts";
import { createApiKeyUser, newP256KeyPair, rawPost, sdkClient, startTestEmulator } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();

type Proof = { scheme: string; publicKey: string; proofPayload: string; signature: string };
const payloadOf = (p: Proof) => JSON.parse(p.proofPayload) as { type: string; timestampMs: string; addressDerivationProof: Record<string, string> };

const ETH = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" } as const;
const SOL = { curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'", addressFormat: "ADDRESS_FORMAT_SOLANA" } as const;

describe("app proofs", () => {
  it("create_wallet with generateAppProofs: one verifiable address-derivation proof per account, listed by list_app_proofs", async () => {
    const c = sdkClient(emu);
    // @turnkey/sdk-server sends the flag inside `parameters`.
    const w = await c.createWallet({ walletName: `proved-${Date.now()}`, accounts: [ETH, SOL], generateAppProofs: true } as never);
    const proofs = (w.activity as { appProofs?: Proof[] }).appProofs!;
    expect(proofs).toHaveLength(2);
    for (const p of proofs) {
      expect(p.scheme).toBe("SIGNATURE_SCHEME_EPHEMERAL_KEY_P256");
      expect(() => verifyAppProofSignature(p as never)).not.toThrow();
    }
    const accounts = (await c.getWalletAccounts({ walletId: w.walletId })).accounts;
    expect(proofs.map(payloadOf)).toEqual(
      [ETH, SOL].map((a) => ({
        type: "APP_PROOF_TYPE_ADDRESS_DERIVATION",
        timestampMs: expect.stringMatching(/^\d+$/),
        addressDerivationProof: { organizationId: emu.info.organizationId, walletId: w.walletId, derivationPath: a.path, address: accounts.find((x) => x.path === a.path)!.address },
      })),
    );
    expect(w.addresses).toEqual(proofs.map((p) => payloadOf(p).addressDerivationProof.address));
    // One ephemeral key signs them all.
    expect(new Set(proofs.map((p) => p.publicKey)).size).toBe(1);

    expect((await c.getAppProofs({ activityId: w.activity.id })).appProofs).toEqual(proofs);
    expect((await c.getActivity({ activityId: w.activity.id })).activity.appProofs).toEqual(proofs);

    // A tampered payload no longer verifies (the oracle is not trivially satisfied).
    const tampered = { ...proofs[0]!, proofPayload: proofs[0]!.proofPayload.replace(w.walletId, "00000000-0000-4000-8000-000000000000") };
    expect(() => verifyAppProofSignature(tampered as never)).toThrow();

    // The boot proof that would attest this ephemeral key cannot be produced without an enclave.
    const boot = await rawPost(emu, "/public/v1/query/get_boot_proof", JSON.stringify({ organizationId: emu.info.organizationId, ephemeralKey: proofs[0]!.publicKey }));
    expect(boot.status).toBe(501);
    expect(boot.json.message).toMatch(/enclave/);
  });

  it("no flag, no proofs; the flag at the top level (as @turnkey/core sends it) on create_wallet_accounts", async () => {
    const c = sdkClient(emu);
    const w = await c.createWallet({ walletName: `unproved-${Date.now()}`, accounts: [ETH] });
    expect((w.activity as { appProofs?: Proof[] }).appProofs).toBeUndefined();
    expect((await c.getAppProofs({ activityId: w.activity.id })).appProofs).toEqual([]);

    const account = { ...ETH, path: "m/44'/60'/0'/0/1" };
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS",
      timestampMs: String(Date.now()),
      organizationId: emu.info.organizationId,
      parameters: { walletId: w.walletId, accounts: [account] },
      generateAppProofs: true,
    });
    const r = await rawPost(emu, "/public/v1/submit/create_wallet_accounts", body);
    expect(r.status).toBe(200);
    const proofs = r.json.activity.appProofs as Proof[];
    expect(proofs).toHaveLength(1);
    expect(() => verifyAppProofSignature(proofs[0] as never)).not.toThrow();
    expect(payloadOf(proofs[0]!).addressDerivationProof).toEqual({
      organizationId: emu.info.organizationId,
      walletId: w.walletId,
      derivationPath: account.path,
      address: r.json.activity.result.createWalletAccountsResult.addresses[0],
    });
    // An activity that derives no address gets no proof even when asked.
    const tag = await c.createUserTag({ userTagName: `t-${Date.now()}`, userIds: [], generateAppProofs: true } as never);
    expect((await c.getAppProofs({ activityId: tag.activity.id })).appProofs).toEqual([]);
  });

  it("import_wallet: the proof names the address viem derives from the imported mnemonic", async () => {
    const c = sdkClient(emu);
    const userId = emu.info.rootUserId;
    const { importBundle } = await c.initImportWallet({ userId });
    const mnemonic = "legal winner thank year wave sausage worth useful legal winner thank yellow";
    const info = emu.info as unknown as { signerPublicKey: string };
    const encryptedBundle = await encryptWalletToBundle({ mnemonic, importBundle, userId, organizationId: emu.info.organizationId, dangerouslyOverrideSignerPublicKey: info.signerPublicKey });
    const r = await c.importWallet({ userId, walletName: `imported-${Date.now()}`, encryptedBundle, accounts: [ETH], generateAppProofs: true } as never);
    const proofs = (r.activity as { appProofs?: Proof[] }).appProofs!;
    expect(proofs).toHaveLength(1);
    expect(() => verifyAppProofSignature(proofs[0] as never)).not.toThrow();
    expect(payloadOf(proofs[0]!).addressDerivationProof).toEqual({ organizationId: emu.info.organizationId, walletId: r.walletId, derivationPath: ETH.path, address: mnemonicToAccount(mnemonic).address });
  });

  it("create_sub_organization with a wallet: the proof names the sub-organization", async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: `proofs sub ${Date.now()}`,
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: "w", accounts: [ETH] },
      generateAppProofs: true,
    } as never);
    const proofs = (sub.activity as { appProofs?: Proof[] }).appProofs!;
    expect(proofs).toHaveLength(1);
    expect(() => verifyAppProofSignature(proofs[0] as never)).not.toThrow();
    expect(payloadOf(proofs[0]!).addressDerivationProof).toMatchObject({ organizationId: sub.subOrganizationId, walletId: sub.wallet!.walletId, address: sub.wallet!.addresses[0] });
    // The activity is the parent's: the sub-organization cannot list its proofs.
    await expect(sdkClient(emu, key, sub.subOrganizationId).getAppProofs({ activityId: sub.activity.id })).rejects.toThrow(/activity not found/);
  });

  it("an activity awaiting consensus has none until it completes", async () => {
    const e = await startTestEmulator();
    try {
      const root = sdkClient(e);
      const { id: secondId, key: second } = await createApiKeyUser(e, "root-2");
      await root.updateRootQuorum({ threshold: 2, userIds: [e.info.rootUserId, secondId] });
      const proposal = await root.createWallet({ walletName: "needs-two", accounts: [ETH], generateAppProofs: true } as never);
      expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      expect((await root.getAppProofs({ activityId: proposal.activity.id })).appProofs).toEqual([]);
      const approved = await sdkClient(e, second).approveActivity({ fingerprint: proposal.activity.fingerprint });
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const proofs = (await root.getAppProofs({ activityId: proposal.activity.id })).appProofs;
      expect(proofs).toHaveLength(1);
      expect(() => verifyAppProofSignature(proofs[0] as never)).not.toThrow();
      expect(payloadOf(proofs[0] as Proof).addressDerivationProof.walletId).toBe((approved.activity.result as { createWalletResult: { walletId: string } }).createWalletResult.walletId);
    } finally {
      await e.stop();
    }
  });

  it("list_app_proofs refuses a malformed id and answers 404 for an unknown activity", async () => {
    const c = sdkClient(emu);
    await expect(c.getAppProofs({ activityId: "nope" })).rejects.toThrow(/invalid activity UUID/);
    await expect(c.getAppProofs({ activityId: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow(/activity not found/);
    const r = await rawPost(emu, "/public/v1/query/list_app_proofs", JSON.stringify({ organizationId: emu.info.organizationId, activityId: "nope" }));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json.details)).toContain("activityId");
  });
});
