/**
 * Which addresses a new local chain pre-funds: the fixture wallets' Ethereum and Solana
 * accounts (with the default fixture, `test test ... junk`: 0xf39F...2266 and friends).
 */
import { addressFor, deriveKey, mnemonicToSeed, type Curve } from "../../derivation/index.js";
import { fixtureOrganizations, type Fixture } from "../../core/fixture.js";

export type FundedAccounts = { evm: `0x${string}`[]; solana: string[] };

export function fixtureFundedAccounts(fixture: Fixture): FundedAccounts {
  const out: FundedAccounts = { evm: [], solana: [] };
  for (const w of fixtureOrganizations(fixture).flatMap((o) => o.org.wallets)) {
    const wanted = w.accounts.filter((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM" || a.addressFormat === "ADDRESS_FORMAT_SOLANA");
    if (!wanted.length) continue;
    const seed = mnemonicToSeed(w.mnemonic);
    for (const a of wanted) {
      // The fixture was checked when it was seeded; derive the same addresses the wallet holds.
      const { publicKey } = deriveKey(seed, a.curve as Curve, a.path);
      const address = addressFor(a.addressFormat, a.curve as Curve, publicKey);
      if (a.addressFormat === "ADDRESS_FORMAT_ETHEREUM") out.evm.push(address as `0x${string}`);
      else out.solana.push(address);
    }
  }
  return out;
}
