/**
 * Derived private keys stay with the instance that derived them: the HD nodes a wallet's
 * accounts come from are cached in the instance's keyring, so reset, deleting the wallet and
 * stop drop them, and a second instance in the same process never holds the first one's.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../emulator/index.js";
import { sdkClient, startTestEmulator } from "./support.js";

const ETH = (i: number) => ({ curve: "CURVE_SECP256K1" as const, pathFormat: "PATH_FORMAT_BIP32" as const, path: `m/44'/60'/0'/0/${i}`, addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const });
const HASH = "0x" + "ab".repeat(32);

const running: RunningEmulator[] = [];
afterAll(async () => {
  for (const e of running) await e.stop();
});

async function start(): Promise<RunningEmulator> {
  const e = await startTestEmulator();
  running.push(e);
  return e;
}

/** Creates a wallet with two accounts in `emu`, signs with the second; returns the wallet's seed. */
async function deriveAndSign(emu: RunningEmulator, walletName: string): Promise<{ walletId: string; seed: Uint8Array }> {
  const client = sdkClient(emu);
  const { walletId, addresses } = await client.createWallet({ walletName, accounts: [ETH(0), ETH(1)] });
  await client.signRawPayload({ signWith: addresses[1]!, payload: HASH, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
  const { keyring, store } = emu.runtime;
  return { walletId, seed: keyring.seedOf(store.wallets.get(emu.info.organizationId, walletId)!) };
}

describe("derived keys are per instance", () => {
  it("a second instance in the same process never holds the first one's HD nodes; reset drops them", async () => {
    const a = await start();
    const b = await start();
    const { seed } = await deriveAndSign(a, "held by a");
    expect(a.runtime.keyring.holdsNodesOf(seed)).toBe(true);
    expect(b.runtime.keyring.holdsNodesOf(seed)).toBe(false);

    // B derives and signs with wallets of its own: still none of A's nodes.
    const own = await deriveAndSign(b, "held by b");
    expect(b.runtime.keyring.holdsNodesOf(own.seed)).toBe(true);
    expect(b.runtime.keyring.holdsNodesOf(seed)).toBe(false);
    expect(a.runtime.keyring.holdsNodesOf(own.seed)).toBe(false);

    a.reset();
    expect(a.runtime.keyring.holdsNodesOf(seed)).toBe(false);
    expect(b.runtime.keyring.holdsNodesOf(own.seed)).toBe(true); // A's reset leaves B alone
  });

  it("deleting a wallet forgets its nodes; stop drops every node", async () => {
    const a = await start();
    const kept = await deriveAndSign(a, "kept");
    const gone = await deriveAndSign(a, "deleted");
    await sdkClient(a).deleteWallets({ walletIds: [gone.walletId], deleteWithoutExport: true });
    expect(a.runtime.keyring.holdsNodesOf(gone.seed)).toBe(false);
    expect(a.runtime.keyring.holdsNodesOf(kept.seed)).toBe(true);

    const fixtureWallet = a.runtime.store.wallets.get(a.info.organizationId, a.info.walletId!)!;
    const fixtureSeed = a.runtime.keyring.seedOf(fixtureWallet);
    expect(a.runtime.keyring.holdsNodesOf(fixtureSeed)).toBe(true); // seeding derived the fixture's accounts
    await a.stop();
    expect(a.runtime.keyring.holdsNodesOf(fixtureSeed)).toBe(false);
    expect(a.runtime.keyring.holdsNodesOf(kept.seed)).toBe(false);
  });
});
