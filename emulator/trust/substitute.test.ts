import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as turnkeyCrypto from "@turnkey/crypto";
import { emulatorEnclaveKeys } from "./emulator-keys.js";
import { PRODUCTION_ENCLAVE_KEYS } from "./production-keys.js";
import { isDependency, substituteEnclaveKeys, substitutionsFor } from "./substitute.js";

const keys = emulatorEnclaveKeys("0d59bf5a-3228-47d7-8128-1e1c1da98a34");
const subs = substitutionsFor(keys);
const cryptoDist = dirname(createRequire(import.meta.url).resolve("@turnkey/crypto"));

describe("enclave key substitution", () => {
  it("knows every production key @turnkey/crypto exports", () => {
    const exported = Object.entries(turnkeyCrypto).filter(([name]) => /^PRODUCTION_.*_PUBLIC_KEY$/.test(name));
    expect(exported.length).toBe(5);
    for (const [name, value] of exported) expect(PRODUCTION_ENCLAVE_KEYS.find((k) => k.name === name)?.value).toBe(value);
  });

  it("replaces each literal in @turnkey/crypto's real CJS and ESM builds, keeping every offset", () => {
    for (const file of ["constants.js", "constants.mjs"]) {
      const code = readFileSync(join(cryptoDist, file), "utf8");
      const out = substituteEnclaveKeys(code, subs)!;
      expect(out.length).toBe(code.length);
      for (const k of PRODUCTION_ENCLAVE_KEYS) expect(out).not.toContain(k.value);
      expect(out).toContain(`PRODUCTION_SIGNER_SIGN_PUBLIC_KEY = "${keys.signer}"`);
      expect(out).toContain(`PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY = "${keys.notarizer}"`);
      expect(out).toContain(`PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY = "${keys.tlsFetcher}"`);
      expect(out).toContain(`PRODUCTION_TLS_FETCHER_ENCRYPT_PUBLIC_KEY = "${keys.tlsFetcher}"`);
      expect(out).toContain(`PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY = "${keys.onRamp}"`);
    }
    expect(substituteEnclaveKeys(readFileSync(join(cryptoDist, "turnkey.mjs"), "utf8"), subs)).toBeNull();
  });

  it("touches dependency code only and rejects keys that are not uncompressed hex", () => {
    expect(isDependency("/app/node_modules/@turnkey/crypto/dist/constants.mjs")).toBe(true);
    expect(isDependency("C:\\app\\node_modules\\.pnpm\\x\\constants.js")).toBe(true);
    expect(isDependency("file:///app/src/main.ts")).toBe(false);
    expect(() => substitutionsFor({ ...keys, signer: keys.signer.toUpperCase() })).toThrow(/signer key must be uncompressed lowercase hex/);
    expect(() => substitutionsFor({ ...keys, onRamp: keys.signer })).toThrow(/onRamp key must be compressed lowercase hex/);
    // Keys given without the on-ramp one (as older /emulator/v1/info listed them) leave the production on-ramp key alone.
    const { onRamp: _omitted, ...three } = keys;
    expect(substitutionsFor(three).map(([from]) => from)).not.toContain(turnkeyCrypto.PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY);
  });
});
