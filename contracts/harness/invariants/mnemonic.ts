/**
 * mnemonicDerives: an exported mnemonic re-derives the listed accounts.
 *
 * args:
 *   mnemonic        the decrypted BIP-39 phrase — or, instead:
 *   exportBundle    an export_wallet result's exportBundle, decrypted here with the official
 *                   @turnkey/crypto decryptExportBundle, given
 *   embeddedKey     the private key (hex) of the P-256 key the export was made to
 *                   (${keys.NAME.privateKey}; the export's targetPublicKey was
 *                   ${keys.NAME.publicKeyUncompressed})
 *   organizationId  the organization the bundle must be signed for
 *   signerPublicKey optional: the enclave signing key the bundle must carry (uncompressed hex);
 *                   without it the bundle's own enclaveQuorumPublic is used, so only the
 *                   signature's consistency is checked, not who made it
 *   accounts        [{ path: "m/44'/60'/0'/0/0", address: "0x…", addressFormat?: ADDRESS_FORMAT_ETHEREUM }]
 *
 * Ethereum accounts are derived with viem (mnemonicToAccount); other formats report
 * 'unavailable'. Without a mnemonic or bundle the check reports 'unavailable', never 'pass'.
 */
import { mnemonicToAccount } from "viem/accounts";
import { isAddressEqual, type Hex } from "viem";
import { fail, pass, unavailable, type Invariant, type InvariantOutcome } from "./registry.js";

async function decryptMnemonic(args: Record<string, unknown>): Promise<{ mnemonic: string } | InvariantOutcome> {
  const bundle = args.exportBundle;
  if (typeof bundle !== "string") return unavailable("mnemonicDerives: no mnemonic or exportBundle given");
  if (typeof args.embeddedKey !== "string" || typeof args.organizationId !== "string") return fail("mnemonicDerives: an exportBundle needs embeddedKey and organizationId");
  let crypto: typeof import("@turnkey/crypto");
  try {
    crypto = await import("@turnkey/crypto");
  } catch {
    return unavailable("mnemonicDerives: @turnkey/crypto is not installed, cannot decrypt the export bundle");
  }
  let signer = args.signerPublicKey;
  if (signer === undefined) {
    try {
      signer = (JSON.parse(bundle) as { enclaveQuorumPublic?: string }).enclaveQuorumPublic;
    } catch {
      return fail("mnemonicDerives: exportBundle is not JSON");
    }
  }
  try {
    const mnemonic = await crypto.decryptExportBundle({
      exportBundle: bundle,
      embeddedKey: args.embeddedKey,
      organizationId: args.organizationId,
      dangerouslyOverrideSignerPublicKey: typeof signer === "string" ? signer : undefined,
      returnMnemonic: true,
    });
    return { mnemonic };
  } catch (e) {
    return fail(`mnemonicDerives: the export bundle does not decrypt: ${(e as Error).message}`);
  }
}

export const mnemonicDerives: Invariant = {
  name: "mnemonicDerives",
  description: "an exported mnemonic (given, or decrypted from an export bundle with @turnkey/crypto) re-derives the listed addresses (Ethereum, with viem)",
  async check(args) {
    let mnemonic = args.mnemonic;
    if (typeof mnemonic !== "string" || !mnemonic.trim()) {
      const got = await decryptMnemonic(args);
      if ("outcome" in got) return got;
      mnemonic = got.mnemonic;
    }
    const phrase = String(mnemonic).trim();
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
      const derived = mnemonicToAccount(phrase, { path: path as `m/44'/60'/${string}` }).address;
      if (typeof a.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(a.address)) return fail(`account ${path}: address ${JSON.stringify(a.address)} is not an Ethereum address`);
      if (!isAddressEqual(derived, a.address as Hex)) return fail(`account ${path}: mnemonic derives ${derived}, listed ${a.address}`);
    }
    if (skipped.length === accounts.length) return unavailable(`mnemonicDerives: no supported account format in ${skipped.join(", ")}`);
    return pass(`mnemonic derives ${accounts.length - skipped.length} account(s)${skipped.length ? `; not checked: ${skipped.join(", ")}` : ""}`);
  },
};
