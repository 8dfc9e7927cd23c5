/**
 * get_wallet_address_balances as tkhq/docs api-reference/queries/get-balances.mdx describes it:
 * "Only non-zero balances are returned" (:3) and "Private key addresses are not supported"
 * (:24). Through @turnkey/sdk-server, checked against viem reading the same chain. The docs give
 * no message for a private key's address: 400 naming `address` (docs/fidelity.md
 * `balances-private-key-address`).
 */
import { describe, expect, it } from "vitest";
import { createPublicClient, http, parseEther } from "viem";
import { refusal, sdkClient, storeCounts, violatedField } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const CAIP2 = "eip155:11155111";
const emu = useTestEmulator();

const chain = () => createPublicClient({ transport: http(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/rpc`) });
async function fund(address: string, wei: bigint): Promise<void> {
  const r = await fetch(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/fund`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address, amount: wei.toString() }) });
  expect(r.status).toBe(200);
}

describe("get_wallet_address_balances", () => {
  it("Only non-zero balances are returned: a fresh account lists nothing, a funded one its ETH", async () => {
    const c = sdkClient(emu);
    const { addresses } = await c.createWallet({
      walletName: "fresh",
      accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }],
    });
    const address = addresses[0]! as `0x${string}`;
    expect(await chain().getBalance({ address })).toBe(0n);
    expect((await c.getWalletAddressBalances({ address, caip2: CAIP2 })).balances ?? []).toEqual([]);

    await fund(address, parseEther("0.25"));
    const { balances } = await c.getWalletAddressBalances({ address, caip2: CAIP2 });
    expect(balances).toEqual([expect.objectContaining({ symbol: "ETH", balance: (await chain().getBalance({ address })).toString() })]);
    expect(balances!.every((b) => BigInt(b.balance!) > 0n)).toBe(true);
  });

  it("Private key addresses are not supported: a funded private key's address is refused naming it, nothing written", async () => {
    const c = sdkClient(emu);
    const r = await c.createPrivateKeys({ privateKeys: [{ privateKeyName: "balances key", curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }] });
    const address = r.privateKeys[0]!.addresses![0]!.address!;
    await fund(address, parseEther("1"));
    expect(await chain().getBalance({ address: address as `0x${string}` })).toBe(parseEther("1"));

    for (const asSent of [address, address.toLowerCase()]) {
      const before = storeCounts(emu);
      const err = await refusal(c.getWalletAddressBalances({ address: asSent, caip2: CAIP2 }));
      expect(err.code).toBe(3);
      expect(err.message).toMatch(/private key addresses are not supported/i);
      expect(err.message).toContain(asSent);
      expect(violatedField(err)).toBe("address");
      expect(storeCounts(emu)).toEqual(before);
    }
  });
});
