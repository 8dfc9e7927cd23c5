/**
 * mnemonicDerives: an exported mnemonic re-derives the listed accounts.
 *
 * args:
 *   mnemonic   the decrypted BIP-39 phrase (from an export)
 *   accounts   [{ path: "m/44'/60'/0'/0/0", address: "0x…", addressFormat?: ADDRESS_FORMAT_ETHEREUM }]
 *
 * Ethereum accounts are derived with viem (mnemonicToAccount); other formats report
 * 'unavailable'. Without a mnemonic (export not emulated yet, or the bundle not decrypted)
 * the check reports 'unavailable' instead of passing.
 */
import { mnemonicToAccount } from "viem/accounts";
import { isAddressEqual, type Hex } from "viem";
import { fail, pass, unavailable, type Invariant } from "./registry.js";

export const mnemonicDerives: Invariant = {
  name: "mnemonicDerives",
  description: "an exported mnemonic re-derives the listed addresses (Ethereum, with viem)",
  check(args) {
    const mnemonic = args.mnemonic;
    if (typeof mnemonic !== "string" || !mnemonic.trim()) return unavailable("mnemonicDerives: no mnemonic given (needs a decrypted export bundle)");
    const accounts = args.accounts;
    if (!Array.isArray(accounts) || !accounts.length) return unavailable("mnemonicDerives: no accounts given");
    const skipped: string[] = [];
    for (const a of accounts as Record<string, unknown>[]) {
      const format = String(a.addressFormat ?? "ADDRESS_FORMAT_ETHEREUM");
      if (format !== "ADDRESS_FORMAT_ETHEREUM") {
        skipped.push(`${a.path} (${format})`);
        continue;
      }
      const path = String(a.path);
      if (!/^m(\/\d+'?)+$/.test(path)) return fail(`bad derivation path ${path}`);
      const derived = mnemonicToAccount(mnemonic.trim(), { path: path as `m/44'/60'/${string}` }).address;
      if (typeof a.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(a.address)) return fail(`account ${path}: address ${JSON.stringify(a.address)} is not an Ethereum address`);
      if (!isAddressEqual(derived, a.address as Hex)) return fail(`account ${path}: mnemonic derives ${derived}, listed ${a.address}`);
    }
    if (skipped.length === accounts.length) return unavailable(`mnemonicDerives: no supported account format in ${skipped.join(", ")}`);
    return pass(`mnemonic derives ${accounts.length - skipped.length} account(s)${skipped.length ? `; not checked: ${skipped.join(", ")}` : ""}`);
  },
};
