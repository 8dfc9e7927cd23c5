import { describe, expect, it } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import { mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { InputError } from "../../core/input-error.js";
import { assertValidMnemonic, generateMnemonic, isValidMnemonic, mnemonicToSeed, MNEMONIC_LENGTHS } from "./mnemonic.js";

const ABANDON = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

describe("mnemonic", () => {
  it("generates valid phrases of every allowed length (checked by @scure/bip39)", () => {
    for (const n of MNEMONIC_LENGTHS) {
      const m = generateMnemonic(n);
      expect(m.split(" ")).toHaveLength(n);
      expect(validateMnemonic(m, wordlist)).toBe(true);
    }
    expect(generateMnemonic().split(" ")).toHaveLength(12);
  });

  it("rejects other lengths with an InputError", () => {
    for (const n of [0, 11, 13, 25, 12.5]) {
      expect(() => generateMnemonic(n)).toThrow(InputError);
    }
    try {
      generateMnemonic(13);
    } catch (e) {
      expect((e as InputError).path).toBe("mnemonicLength");
      expect((e as InputError).message).toMatch(/12, 15, 18, 21, 24/);
    }
  });

  it("validates checksums", () => {
    expect(isValidMnemonic(ABANDON)).toBe(true);
    expect(isValidMnemonic(ABANDON.replace(/about$/, "abandon"))).toBe(false);
    expect(isValidMnemonic("not a mnemonic")).toBe(false);
    expect(() => assertValidMnemonic("abandon")).toThrow(/invalid mnemonic/);
  });

  it("seed matches the BIP-39 published vector (passphrase TREZOR)", () => {
    expect(bytesToHex(mnemonicToSeed(ABANDON, "TREZOR"))).toBe(
      "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04",
    );
  });

  it("seed equals @scure/bip39 for random phrases and passphrases", () => {
    for (const n of [12, 24]) {
      const m = generateMnemonic(n);
      expect(bytesToHex(mnemonicToSeed(m))).toBe(bytesToHex(mnemonicToSeedSync(m)));
      expect(bytesToHex(mnemonicToSeed(m, "pässwörd"))).toBe(bytesToHex(mnemonicToSeedSync(m, "pässwörd")));
    }
  });
});
