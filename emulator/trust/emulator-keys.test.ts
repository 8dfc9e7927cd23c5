import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadFixture } from "../fixtures.js";
import { emulatorEnclaveKeys, fixturePath, fixtureSeedOrganizationId, refusalFor, trustedKeysFromEnv } from "./emulator-keys.js";

// Its keys against a running emulator's: test/trust/emulator-keys.test.ts.
describe("the trust switch's settings", () => {
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
