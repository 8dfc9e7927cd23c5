/**
 * Library errors on the wire: signing, chain and bundle code throws InputErrors relative to
 * its own arguments; the request boundary answers the rpcStatus naming the request field.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { rawPost, sdkClient, storeCounts, submitBody } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();
let ethAddress: string;
beforeAll(async () => {
  const { wallets } = await sdkClient(emu).getWallets({});
  const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId: wallets[0]!.walletId });
  ethAddress = accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM")!.address;
});

const violation = (json: { details?: { fieldViolations?: { field: string; description: string }[] }[] }) =>
  json.details?.find((d) => d.fieldViolations)?.fieldViolations?.[0];

async function submit(path: string, type: string, parameters: unknown) {
  const before = storeCounts(emu);
  const r = await rawPost(emu, `/public/v1/submit/${path}`, submitBody(emu, type, parameters));
  expect(storeCounts(emu)).toEqual(before);
  return r;
}

describe("library InputErrors at the request boundary", () => {
  it("sign_transaction: a malformed transaction is a 400 on parameters.unsignedTransaction", async () => {
    const r = await submit("sign_transaction", "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", { signWith: ethAddress, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: "0xzz" });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(3);
    expect(r.json.message).toBe("unsignedTransaction is not valid hex");
    expect(violation(r.json)).toEqual({ field: "parameters.unsignedTransaction", description: "unsignedTransaction is not valid hex" });
  });

  it("sign_raw_payload: a bad payload names parameters.payload; an unknown signWith is a 404", async () => {
    const bad = await submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", {
      signWith: ethAddress,
      payload: "0x1234",
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(bad.status).toBe(400);
    expect(violation(bad.json)?.field).toBe("parameters.payload");
    expect(bad.json.message).toMatch(/HASH_FUNCTION_NO_OP requires a 32-byte digest/);

    const missing = await submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", {
      signWith: "0x000000000000000000000000000000000000dEaD",
      payload: "00",
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_SHA256",
    });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe(5);
    expect(missing.json.message).toMatch(/could not find a wallet account or private key for signWith/);
  });

  it("create_wallet: account errors name the account inside parameters.accounts", async () => {
    const account = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" };
    const repeated = await submit("create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "twice", accounts: [account, { ...account, path: "m/44h/60h/0h/0/0" }] });
    expect(repeated.status).toBe(400);
    expect(violation(repeated.json)?.field).toBe("parameters.accounts[1].path");

    const badPath = await submit("create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "bad path", accounts: [account, { ...account, path: "m/44'/x" }] });
    expect(badPath.status).toBe(400);
    expect(violation(badPath.json)?.field).toBe("parameters.accounts[1].path");
    expect(badPath.json.message).toMatch(/^invalid path "m\/44'\/x": segment 2/);
  });
});
