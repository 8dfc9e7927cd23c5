/**
 * The request limits of docs/limits.md, end to end through the official SDK: a refused
 * request is a 400 naming the field, and nothing is written.
 */
import { describe, expect, it } from "vitest";
import { sdkClient, storeCounts } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const eth = (i: number) => ({ curve: "CURVE_SECP256K1" as const, pathFormat: "PATH_FORMAT_BIP32" as const, path: `m/44'/60'/0'/0/${i}`, addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const });

describe("request limits", () => {
  const emu = useTestEmulator();

  /** The SDK's error for a refused call, with the store's row counts before and after. */
  async function refused(call: () => Promise<unknown>) {
    const before = storeCounts(emu);
    const err = (await call().then(() => undefined, (e: unknown) => e)) as { name?: string; code?: number; message?: string; details?: unknown } | undefined;
    return { err, unchanged: JSON.stringify(storeCounts(emu)) === JSON.stringify(before) };
  }

  it("refuses control characters and over-long names with 400 naming the field, writing nothing", async () => {
    const c = sdkClient(emu);
    for (const walletName of ["bad\u0000name", "esc \u001b[2J", "\u202eevil", "x".repeat(257)]) {
      const { err, unchanged } = await refused(() => c.createWallet({ walletName, accounts: [eth(0)] }));
      expect(err, JSON.stringify(walletName)).toBeDefined();
      // TurnkeyRequestError carries the rpcStatus code: 3 = INVALID_ARGUMENT (HTTP 400).
      expect([err!.name, err!.code]).toEqual(["TurnkeyRequestError", 3]);
      expect(JSON.stringify(err!.details)).toContain("parameters.walletName");
      expect(unchanged).toBe(true);
    }
  });

  it("accepts names in any script, with emoji, up to 256 characters", async () => {
    const c = sdkClient(emu);
    const r = await c.createWallet({ walletName: "钱包 😀 " + "é".repeat(250), accounts: [eth(0)] });
    expect(r.walletId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses more wallet accounts in one request than the limit", async () => {
    const c = sdkClient(emu);
    const { err, unchanged } = await refused(() => c.createWallet({ walletName: "many accounts", accounts: Array.from({ length: 101 }, (_, i) => eth(i)) }));
    expect([err?.name, err?.code]).toEqual(["TurnkeyRequestError", 3]);
    expect(err?.message).toMatch(/parameters\.accounts: must list at most 100 items/);
    expect(unchanged).toBe(true);
  });

  it("checks nested names: an API key name inside create_users", async () => {
    const c = sdkClient(emu);
    const { err, unchanged } = await refused(() =>
      c.createUsers({ users: [{ userName: "ok", apiKeys: [{ apiKeyName: "line\nbreak", publicKey: "02" + "11".repeat(32), curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] }),
    );
    expect([err?.name, err?.code]).toEqual(["TurnkeyRequestError", 3]);
    expect(JSON.stringify(err?.details)).toContain("parameters.users[0].apiKeys[0].apiKeyName");
    expect(unchanged).toBe(true);
  });
});
