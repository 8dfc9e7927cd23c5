import { describe, it, expect } from "vitest";
import { verifyAppProofSignature } from "@turnkey/crypto";
import { makeAppProof, generateEphemeralKeys } from "./app-proof.js";

const payload = {
  type: "APP_PROOF_TYPE_ADDRESS_DERIVATION",
  timestampMs: "1763784000000",
  addressDerivationProof: {
    organizationId: "o-1",
    walletId: "w-1",
    derivationPath: "m/44'/60'/0'/0/0",
    address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
  },
};

describe("app proofs", () => {
  it("verifyAppProofSignature accepts ours", () => {
    const proof = makeAppProof(payload, generateEphemeralKeys());
    expect(() => verifyAppProofSignature(proof)).not.toThrow();
    expect(JSON.parse(proof.proofPayload)).toEqual(payload);
    expect(proof.publicKey).toHaveLength(260);
  });

  it("verifyAppProofSignature rejects a tampered payload or a proof signed by the encryption key", () => {
    const keys = generateEphemeralKeys();
    const proof = makeAppProof(payload, keys);
    expect(() => verifyAppProofSignature({ ...proof, proofPayload: proof.proofPayload.replace("w-1", "w-2") })).toThrow();
    const wrongKey = makeAppProof(payload, { encryption: keys.encryption, signing: keys.encryption });
    expect(() => verifyAppProofSignature({ ...wrongKey, publicKey: proof.publicKey })).toThrow();
  });
});
