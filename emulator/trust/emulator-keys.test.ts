import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { instanceKeysFor, instancePublicKeys } from "../core/auth/instance-keys.js";
import { loadFixture } from "../fixtures.js";
import { emulatorEnclaveKeys, fixturePath, fixtureSeedOrganizationId, refusalFor, trustedKeysFromEnv } from "./emulator-keys.js";
import { onRampEncryptionPublicKey } from "../families/onramp/secrets.js";

const asInfo = (k: { signer: string; tlsFetcher: string; notarizer: string }) => ({ signerPublicKey: k.signer, tlsFetcherPublicKey: k.tlsFetcher, notarizerPublicKey: k.notarizer });

describe("the trust switch's copy of the emulator's enclave key derivation", () => {
  it("gives the keys an emulator instance holds, for any fixture organization id", () => {
    for (const id of [loadFixture().organization.organizationId, "0d6d8d0e-6a8c-4a3b-9d57-1b8f1b1b1b1b", "x"]) {
      expect(asInfo(emulatorEnclaveKeys(id))).toEqual(instancePublicKeys(instanceKeysFor(id)));
      expect(emulatorEnclaveKeys(id).onRamp).toBe(onRampEncryptionPublicKey(instanceKeysFor(id).onRamp));
    }
  });

  it("defaults to the package's default fixture, and lets TURNKEY_EMULATOR_ORG_ID or EMULATOR_TRUST_FIXTURE choose", () => {
    const defaultId = loadFixture().organization.organizationId;
    expect(trustedKeysFromEnv({})).toMatchObject({ organizationId: defaultId, keys: emulatorEnclaveKeys(defaultId) });
    expect(trustedKeysFromEnv({ EMULATOR_TRUST_FIXTURE: "default" }).organizationId).toBe(defaultId);
    expect(trustedKeysFromEnv({ TURNKEY_EMULATOR_ORG_ID: "org-b", EMULATOR_TRUST_FIXTURE: "default" })).toMatchObject({ organizationId: "org-b", from: "TURNKEY_EMULATOR_ORG_ID" });

    const dir = mkdtempSync(join(tmpdir(), "trust-"));
    const file = join(dir, "app.json");
    writeFileSync(file, JSON.stringify({ organization: { organizationId: "11111111-2222-4333-8444-555555555555" } }));
    expect(trustedKeysFromEnv({ EMULATOR_TRUST_FIXTURE: file })).toMatchObject({ organizationId: "11111111-2222-4333-8444-555555555555", from: file });
    writeFileSync(join(dir, "empty.json"), "{}");
    expect(() => fixtureSeedOrganizationId(join(dir, "empty.json"))).toThrow(/empty\.json has no organization\.organizationId/);
    expect(() => fixturePath("no-such-fixture")).toThrow(/fixture "no-such-fixture" not found/);
  });

  it("refuses under NODE_ENV=production unless EMULATOR_TRUST_FORCE=1", () => {
    expect(refusalFor({ NODE_ENV: "production" })).toMatch(/NODE_ENV=production.*EMULATOR_TRUST_FORCE=1/);
    expect(refusalFor({ NODE_ENV: "production", EMULATOR_TRUST_FORCE: "1" })).toBeNull();
    expect(refusalFor({ NODE_ENV: "development" })).toBeNull();
    expect(refusalFor({})).toBeNull();
  });
});
