/**
 * The trust switch's copy of the emulator's enclave-key derivation (emulator/trust/emulator-keys.js,
 * plain JavaScript that loads before any app code) against the keys running emulators publish
 * in their info, for the default fixture's organization and another one.
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadFixture, startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { emulatorEnclaveKeys } from "../../emulator/trust/emulator-keys.js";

const running: RunningEmulator[] = [];
afterAll(() => Promise.all(running.map((e) => e.stop())));

describe("the trust switch's enclave keys", () => {
  it("are the ones an emulator publishes, for any fixture organization", async () => {
    const fixture = loadFixture();
    for (const organizationId of [fixture.organization.organizationId, "0d6d8d0e-6a8c-4a3b-9d57-1b8f1b1b1b1b"]) {
      const emu = await startEmulator({ port: 0, fixtures: { ...fixture, organization: { ...fixture.organization, organizationId } } });
      running.push(emu);
      expect(emu.info.organizationId).toBe(organizationId);
      const { signerPublicKey, tlsFetcherPublicKey, notarizerPublicKey, onRampEncryptionPublicKey } = emu.info;
      expect(emulatorEnclaveKeys(organizationId)).toEqual({ signer: signerPublicKey, tlsFetcher: tlsFetcherPublicKey, notarizer: notarizerPublicKey, onRamp: onRampEncryptionPublicKey });
    }
    expect(running[0]!.info.signerPublicKey).not.toBe(running[1]!.info.signerPublicKey);
  });
});
