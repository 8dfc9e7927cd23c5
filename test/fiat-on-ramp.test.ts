/**
 * Fiat on-ramp through @turnkey/sdk-server: credentials whose secrets @turnkey/crypto's
 * encryptOnRampSecret encrypts to the key /emulator/v1/info publishes; init_fiat_on_ramp's
 * checkout URL opened and completed with plain HTTP (GET the page, POST the form as a browser
 * would); get_onramp_transaction_status; the delivery read back from the local chains by viem
 * and @solana/web3.js (independent readers); policies and the root quorum over the new types.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { encryptOnRampSecret, PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY } from "@turnkey/crypto";
import { createPublicClient, http, parseEther, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { Connection, Keypair, LAMPORTS_PER_SOL } from "@solana/web3.js";
import { createApiKeyUser, type KeyPair, rawPost, sdkClient, startTestEmulator, storeCounts, submitBody, timestampMs } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();
let onRampKey: string;
beforeAll(async () => {
  // The key as an application reads it: from the control API, not from the instance object.
  onRampKey = ((await (await fetch(`${emu.url}/emulator/v1/info`)).json()) as { onRampEncryptionPublicKey: string }).onRampEncryptionPublicKey;
});

const MOONPAY = "FIAT_ON_RAMP_PROVIDER_MOONPAY" as const;
const COINBASE = "FIAT_ON_RAMP_PROVIDER_COINBASE" as const;
const ETHEREUM = "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM" as const;
const BASE = "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE" as const;
const SOLANA = "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA" as const;
const BITCOIN = "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN" as const;
const ETH = "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH" as const;
const SOL = "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL" as const;
const USDC = "FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC" as const;
const BTC = "FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC" as const;

const freshEvmAddress = (): Address => privateKeyToAccount(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}`).address;
const evm = (caip2: string) => createPublicClient({ transport: http(`${emu.url}/emulator/v1/chains/${caip2}/rpc`) });
const solana = (caip2: string) => new Connection(`${emu.url}/emulator/v1/chains/${caip2}/rpc`, "confirmed");

/** A browser form submission: application/x-www-form-urlencoded, as <form method="post"> sends it. */
async function submitForm(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const action = new URL(url);
  action.search = "";
  const res = await fetch(action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
}

async function status(transactionId: string, key?: KeyPair): Promise<string> {
  return (await sdkClient(emu, key).getOnRampTransactionStatus({ transactionId, refresh: true })).transactionStatus;
}

describe("fiat on-ramp credentials", () => {
  it("/emulator/v1/info publishes the on-ramp key compressed, the form encryptOnRampSecret takes", () => {
    expect(onRampKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(onRampKey).not.toBe(PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY);
    expect(emu.info.onRampEncryptionPublicKey).toBe(onRampKey);
  });

  it("create, list, update and delete; envelopes are listed as uploaded and secrets are never stored in the clear", async () => {
    const c = sdkClient(emu);
    const moonpaySecret = encryptOnRampSecret("sk_test_moonpay_1", onRampKey);
    const { fiatOnRampCredentialId: moonpay } = await c.createFiatOnRampCredential({ onrampProvider: MOONPAY, publishableApiKey: "pk_test_moonpay", encryptedSecretApiKey: moonpaySecret, sandboxMode: true });
    const coinbaseSecret = encryptOnRampSecret("coinbase-secret-1", onRampKey);
    const coinbasePrivate = encryptOnRampSecret("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----", onRampKey);
    const created = await c.createFiatOnRampCredential({ onrampProvider: COINBASE, projectId: "proj-1", publishableApiKey: "cb-key-name", encryptedSecretApiKey: coinbaseSecret, encryptedPrivateApiKey: coinbasePrivate });
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(created.activity.type).toBe("ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL");
    const coinbase = created.fiatOnRampCredentialId;

    let list = (await c.listFiatOnRampCredentials({})).fiatOnRampCredentials;
    expect(list.map((x) => x.fiatOnrampCredentialId)).toEqual([moonpay, coinbase]);
    expect(list[0]).toMatchObject({ organizationId: emu.info.organizationId, onrampProvider: MOONPAY, publishableApiKey: "pk_test_moonpay", encryptedSecretApiKey: moonpaySecret, sandboxMode: true });
    expect(list[0]).not.toHaveProperty("projectId");
    expect(list[1]).toMatchObject({ onrampProvider: COINBASE, projectId: "proj-1", encryptedSecretApiKey: coinbaseSecret, encryptedPrivateApiKey: coinbasePrivate, sandboxMode: false });

    // At rest: no plaintext secret anywhere in the database.
    const image = emu.runtime.store.image().toString("latin1");
    for (const plain of ["sk_test_moonpay_1", "coinbase-secret-1", "BEGIN EC PRIVATE KEY"]) expect(image).not.toContain(plain);

    const newSecret = encryptOnRampSecret("coinbase-secret-2", onRampKey);
    const updated = await c.updateFiatOnRampCredential({ fiatOnrampCredentialId: coinbase, onrampProvider: COINBASE, projectId: "proj-2", publishableApiKey: "cb-key-name-2", encryptedSecretApiKey: newSecret, encryptedPrivateApiKey: coinbasePrivate });
    expect(updated.fiatOnRampCredentialId).toBe(coinbase);
    list = (await c.listFiatOnRampCredentials({})).fiatOnRampCredentials;
    const after = list.find((x) => x.fiatOnrampCredentialId === coinbase)!;
    expect(after).toMatchObject({ projectId: "proj-2", publishableApiKey: "cb-key-name-2", encryptedSecretApiKey: newSecret });
    expect(timestampMs(after.updatedAt)).toBeGreaterThanOrEqual(timestampMs(after.createdAt));

    expect((await c.deleteFiatOnRampCredential({ fiatOnrampCredentialId: coinbase })).fiatOnRampCredentialId).toBe(coinbase);
    expect((await c.listFiatOnRampCredentials({})).fiatOnRampCredentials.map((x) => x.fiatOnrampCredentialId)).toEqual([moonpay]);
    await expect(c.deleteFiatOnRampCredential({ fiatOnrampCredentialId: coinbase })).rejects.toMatchObject({ code: 5 });
    await c.deleteFiatOnRampCredential({ fiatOnrampCredentialId: moonpay });
  });

  it("refuses bad input naming the field, writing nothing", async () => {
    const good = { onrampProvider: MOONPAY, publishableApiKey: "pk", encryptedSecretApiKey: encryptOnRampSecret("sk", onRampKey) };
    const cases: [string, string, Record<string, unknown>, string, number][] = [
      ["create_fiat_on_ramp_credential", "ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, encryptedSecretApiKey: "garbage" }, "parameters.encryptedSecretApiKey", 400],
      ["create_fiat_on_ramp_credential", "ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, encryptedSecretApiKey: encryptOnRampSecret("sk", PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY) }, "parameters.encryptedSecretApiKey", 400],
      ["create_fiat_on_ramp_credential", "ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, encryptedPrivateApiKey: "garbage" }, "parameters.encryptedPrivateApiKey", 400],
      ["create_fiat_on_ramp_credential", "ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, publishableApiKey: " " }, "parameters.publishableApiKey", 400],
      ["create_fiat_on_ramp_credential", "ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, onrampProvider: COINBASE, encryptedPrivateApiKey: good.encryptedSecretApiKey }, "parameters.projectId", 400],
      ["create_fiat_on_ramp_credential", "ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, onrampProvider: COINBASE, projectId: "p" }, "parameters.encryptedPrivateApiKey", 400],
      ["create_fiat_on_ramp_credential", "ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, onrampProvider: "FIAT_ON_RAMP_PROVIDER_RAMP" }, "parameters.onrampProvider", 400],
      ["update_fiat_on_ramp_credential", "ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, fiatOnrampCredentialId: "nope" }, "parameters.fiatOnrampCredentialId", 400],
      ["update_fiat_on_ramp_credential", "ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL", { ...good, fiatOnrampCredentialId: crypto.randomUUID() }, "", 404],
      ["delete_fiat_on_ramp_credential", "ACTIVITY_TYPE_DELETE_FIAT_ON_RAMP_CREDENTIAL", { fiatOnrampCredentialId: crypto.randomUUID() }, "", 404],
    ];
    for (const [op, type, parameters, field, httpStatus] of cases) {
      const before = storeCounts(emu);
      const r = await rawPost(emu, `/public/v1/submit/${op}`, submitBody(emu, type, parameters));
      expect(r.status, `${op} ${field}`).toBe(httpStatus);
      expect(r.json).toMatchObject({ code: httpStatus === 404 ? 5 : 3 });
      if (field) expect(JSON.stringify(r.json.details), field).toContain(field);
      expect(JSON.stringify(r.json)).not.toContain("sk\"");
      expect(storeCounts(emu), `${op} wrote nothing`).toEqual(before);
    }
  });
});

describe("init_fiat_on_ramp and the emulated checkout", () => {
  it("ETH on Ethereum (sandbox): the page shows the intent; the form completes it; Sepolia credits the address (viem)", async () => {
    const c = sdkClient(emu);
    const to = freshEvmAddress();
    const init = await c.initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: to, network: ETHEREUM, cryptoCurrencyCode: ETH, fiatCurrencyCode: "FIAT_ON_RAMP_CURRENCY_EUR", fiatCurrencyAmount: "150", paymentMethod: "FIAT_ON_RAMP_PAYMENT_METHOD_SEPA_BANK_TRANSFER", sandboxMode: true });
    expect(init.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(init.onRampTransactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(init.onRampUrlSignature).toBeUndefined();
    const url = new URL(init.onRampUrl);
    expect(url.origin).toBe(new URL(emu.url).origin);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ provider: "moonpay", walletAddress: to, network: "ethereum", cryptoCurrency: "eth", fiatCurrency: "eur", fiatAmount: "150", sandbox: "true" });
    expect(await status(init.onRampTransactionId)).toBe("PENDING");

    const page = await fetch(init.onRampUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    for (const s of ["MoonPay (sandbox)", to, "EUR", "SEPA_BANK_TRANSFER", 'name="outcome" value="COMPLETED"', 'method="post"']) expect(html).toContain(s);

    const sepolia = evm("eip155:11155111");
    const before = await sepolia.getBalance({ address: to });
    const done = await submitForm(init.onRampUrl, { fiatAmount: "150", cryptoAmount: "", outcome: "COMPLETED" });
    expect(done.status).toBe(200);
    expect(done.html).toContain("Delivered 0.05 ETH on eip155:11155111");
    expect(await status(init.onRampTransactionId)).toBe("COMPLETED");
    // 150 EUR at the emulated 3000 per ETH.
    expect((await sepolia.getBalance({ address: to })) - before).toBe(parseEther("0.05"));
    const b = await c.getWalletAddressBalances({ address: to, caip2: "eip155:11155111" });
    expect(b.balances?.[0]?.balance).toBe((before + parseEther("0.05")).toString());
    // Mainnet saw nothing: sandbox deliveries land on the test network.
    expect(await evm("eip155:1").getBalance({ address: to })).toBe(0n);

    // A checkout settles once.
    const again = await submitForm(init.onRampUrl, { outcome: "COMPLETED", fiatAmount: "150" });
    expect(again.status).toBe(400);
    expect(again.html).toMatch(/already COMPLETED/);
    expect((await sepolia.getBalance({ address: to })) - before).toBe(parseEther("0.05"));
  });

  it("ETH on Base without a preset amount: the buyer types it; scripted completion with JSON names the amounts", async () => {
    const to = freshEvmAddress();
    const init = await sdkClient(emu).initFiatOnRamp({ onrampProvider: COINBASE, walletAddress: to, network: BASE, cryptoCurrencyCode: ETH });
    const checkout = init.onRampUrl.split("?")[0]!;
    const missing = await fetch(checkout, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ outcome: "COMPLETED" }) });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain("fiatAmount");
    const tooLow = await fetch(checkout, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ fiatAmount: "15" }) });
    expect(tooLow.status).toBe(400);
    expect(await status(init.onRampTransactionId)).toBe("PENDING");

    const res = await fetch(checkout, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ fiatAmount: "50", cryptoAmount: "0.123" }) });
    expect(res.status).toBe(200);
    const { transaction } = (await res.json()) as { transaction: Record<string, unknown> };
    expect(transaction).toMatchObject({ status: "COMPLETED", caip2: "eip155:8453", fiatAmount: "50", fiatCurrency: "FIAT_ON_RAMP_CURRENCY_USD", cryptoAmount: parseEther("0.123").toString(), cryptoAmountDisplay: "0.123" });
    expect(await evm("eip155:8453").getBalance({ address: to })).toBe(parseEther("0.123"));
    expect(await status(init.onRampTransactionId)).toBe("COMPLETED");
    const view = (await (await fetch(`${emu.url}/emulator/v1/onramp/transactions/${init.onRampTransactionId}`)).json()) as { transaction: Record<string, unknown> };
    expect(view.transaction).toMatchObject({ status: "COMPLETED", walletAddress: to, provider: COINBASE, sandboxMode: false });
  });

  it("SOL on Solana (live): lamports land on the local mainnet cluster (@solana/web3.js)", async () => {
    const owner = Keypair.generate().publicKey;
    const init = await sdkClient(emu).initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: owner.toBase58(), network: SOLANA, cryptoCurrencyCode: SOL, fiatCurrencyAmount: "300" });
    const done = await submitForm(init.onRampUrl, { fiatAmount: "300", outcome: "COMPLETED" });
    expect(done.status).toBe(200);
    expect(await status(init.onRampTransactionId)).toBe("COMPLETED");
    expect(await solana("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp").getBalance(owner)).toBe(2 * LAMPORTS_PER_SOL);
    expect(await solana("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1").getBalance(owner)).toBe(0);
  });

  it("declined and cancelled checkouts end FAILED and CANCELLED with nothing delivered", async () => {
    for (const outcome of ["FAILED", "CANCELLED"] as const) {
      const to = freshEvmAddress();
      const init = await sdkClient(emu).initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: to, network: ETHEREUM, cryptoCurrencyCode: ETH, fiatCurrencyAmount: "30" });
      const r = await submitForm(init.onRampUrl, { outcome });
      expect(r.status).toBe(200);
      expect(await status(init.onRampTransactionId)).toBe(outcome);
      expect(await evm("eip155:1").getBalance({ address: to })).toBe(0n);
      expect((await submitForm(init.onRampUrl, { outcome: "COMPLETED" })).status).toBe(400);
      expect(await status(init.onRampTransactionId)).toBe(outcome);
    }
  });

  it("concurrent completions: one checkout settles once; two checkouts to one address both land", async () => {
    const to = freshEvmAddress();
    const c = sdkClient(emu);
    // Different amounts: two identical intents in the same millisecond are one activity (idempotent resubmission).
    const open = (fiatCurrencyAmount: string) => c.initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: to, network: BASE, cryptoCurrencyCode: ETH, fiatCurrencyAmount, sandboxMode: true });
    const a = await open("30");
    const results = await Promise.all(Array.from({ length: 4 }, () => submitForm(a.onRampUrl, { outcome: "COMPLETED" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    const baseSepolia = evm("eip155:84532");
    expect(await baseSepolia.getBalance({ address: to })).toBe(parseEther("0.01"));

    const [b, d] = await Promise.all([open("60"), open("90")]);
    expect(b.onRampTransactionId).not.toBe(d.onRampTransactionId);
    const both = await Promise.all([submitForm(b.onRampUrl, { outcome: "COMPLETED" }), submitForm(d.onRampUrl, { outcome: "COMPLETED" })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await baseSepolia.getBalance({ address: to })).toBe(parseEther("0.06"));
  });

  it("USDC and BTC complete without a local credit, and say why", async () => {
    const to = freshEvmAddress();
    const usdc = await sdkClient(emu).initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: to, network: BASE, cryptoCurrencyCode: USDC, fiatCurrencyAmount: "40" });
    await submitForm(usdc.onRampUrl, { outcome: "COMPLETED" });
    expect(await status(usdc.onRampTransactionId)).toBe("COMPLETED");
    const u = ((await (await fetch(`${emu.url}/emulator/v1/onramp/transactions/${usdc.onRampTransactionId}`)).json()) as { transaction: Record<string, unknown> }).transaction;
    expect(u).toMatchObject({ cryptoAmount: "40000000", caip2: null });
    expect(u.note).toMatch(/no USDC contract/);
    expect(await evm("eip155:8453").getBalance({ address: to })).toBe(0n);

    const btc = await sdkClient(emu).initFiatOnRamp({ onrampProvider: COINBASE, walletAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", network: BITCOIN, cryptoCurrencyCode: BTC, fiatCurrencyAmount: "100" });
    await submitForm(btc.onRampUrl, { outcome: "COMPLETED" });
    expect(await status(btc.onRampTransactionId)).toBe("COMPLETED");
    const v = ((await (await fetch(`${emu.url}/emulator/v1/onramp/transactions/${btc.onRampTransactionId}`)).json()) as { transaction: Record<string, unknown> }).transaction;
    expect(v).toMatchObject({ cryptoAmount: "200000", caip2: null });
    expect(v.note).toMatch(/no Bitcoin chain/);
  });

  it("urlForSignature is signed with the organization's MoonPay secret (MoonPay's documented HMAC)", async () => {
    const c = sdkClient(emu);
    await expect(
      c.initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: freshEvmAddress(), network: ETHEREUM, cryptoCurrencyCode: ETH, sandboxMode: true, urlForSignature: "https://buy-sandbox.moonpay.com?apiKey=pk" }),
    ).rejects.toThrow(/no MoonPay sandbox credential/);
    const { fiatOnRampCredentialId } = await c.createFiatOnRampCredential({ onrampProvider: MOONPAY, publishableApiKey: "pk_test_key", encryptedSecretApiKey: encryptOnRampSecret("sk_test_key", onRampKey), sandboxMode: true });
    const query = "?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae";
    const init = await c.initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: freshEvmAddress(), network: ETHEREUM, cryptoCurrencyCode: ETH, sandboxMode: true, urlForSignature: `https://buy-sandbox.moonpay.com${query}` });
    expect(init.onRampUrlSignature).toBe(createHmac("sha256", "sk_test_key").update(query).digest("base64"));
    expect(new URL(init.onRampUrl).searchParams.get("apiKey")).toBe("pk_test_key");
    const view = ((await (await fetch(`${emu.url}/emulator/v1/onramp/transactions/${init.onRampTransactionId}`)).json()) as { transaction: Record<string, unknown> }).transaction;
    expect(view.credentialId).toBe(fiatOnRampCredentialId);
    await c.deleteFiatOnRampCredential({ fiatOnrampCredentialId: fiatOnRampCredentialId });
  });

  it("refuses intents that break the rules, naming the field and writing nothing", async () => {
    const base = { onrampProvider: MOONPAY, walletAddress: freshEvmAddress(), network: ETHEREUM, cryptoCurrencyCode: ETH };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, cryptoCurrencyCode: SOL }, "parameters.cryptoCurrencyCode"],
      [{ ...base, network: BITCOIN }, "parameters.cryptoCurrencyCode"],
      [{ ...base, walletAddress: "0x1234" }, "parameters.walletAddress"],
      [{ ...base, walletAddress: Keypair.generate().publicKey.toBase58() }, "parameters.walletAddress"],
      [{ ...base, network: SOLANA, cryptoCurrencyCode: SOL }, "parameters.walletAddress"],
      [{ ...base, fiatCurrencyAmount: "20" }, "parameters.fiatCurrencyAmount"],
      [{ ...base, fiatCurrencyAmount: "lots" }, "parameters.fiatCurrencyAmount"],
      [{ ...base, onrampProvider: COINBASE, paymentMethod: "FIAT_ON_RAMP_PAYMENT_METHOD_VENMO" }, "parameters.paymentMethod"],
      [{ ...base, paymentMethod: "FIAT_ON_RAMP_PAYMENT_METHOD_ACH_BANK_ACCOUNT" }, "parameters.paymentMethod"],
      [{ ...base, onrampProvider: COINBASE, countryCode: "US" }, "parameters.countrySubdivisionCode"],
      [{ ...base, countryCode: "usa" }, "parameters.countryCode"],
      [{ ...base, onrampProvider: COINBASE, urlForSignature: "https://pay.coinbase.com?x=1" }, "parameters.urlForSignature"],
      [{ ...base, urlForSignature: "not a url" }, "parameters.urlForSignature"],
      [{ ...base, network: "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_DOGE" }, "parameters.network"],
    ];
    for (const [parameters, field] of cases) {
      const before = storeCounts(emu);
      const r = await rawPost(emu, "/public/v1/submit/init_fiat_on_ramp", submitBody(emu, "ACTIVITY_TYPE_INIT_FIAT_ON_RAMP", parameters));
      expect(r.status, field).toBe(400);
      expect(JSON.stringify(r.json.details), JSON.stringify(parameters)).toContain(field);
      expect(storeCounts(emu)).toEqual(before);
    }
    // Coinbase in the US with a state is fine.
    await sdkClient(emu).initFiatOnRamp({ ...base, onrampProvider: COINBASE, countryCode: "US", countrySubdivisionCode: "NY", paymentMethod: "FIAT_ON_RAMP_PAYMENT_METHOD_ACH_BANK_ACCOUNT" });
  });

  it("get_onramp_transaction_status: unknown ids answer 404; the checkout of an unknown id too", async () => {
    await expect(sdkClient(emu).getOnRampTransactionStatus({ transactionId: crypto.randomUUID() })).rejects.toMatchObject({ code: 5 });
    expect((await fetch(`${emu.url}/emulator/v1/onramp/checkout/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await submitForm(`${emu.url}/emulator/v1/onramp/checkout/${crypto.randomUUID()}`, { outcome: "COMPLETED" })).status).toBe(404);
  });
});

describe("policies and the root quorum over the on-ramp activities", () => {
  const newUser = (name: string) => createApiKeyUser(emu, name);

  it("a non-root user needs a policy on ON_RAMP_CREDENTIALS / FIAT_TRANSACTION; each resource is addressed on its own", async () => {
    const u = await newUser("onramp-operator");
    const c = sdkClient(emu, u.key);
    const cred = () => c.createFiatOnRampCredential({ onrampProvider: MOONPAY, publishableApiKey: "pk", encryptedSecretApiKey: encryptOnRampSecret("sk", onRampKey) });
    const init = () => c.initFiatOnRamp({ onrampProvider: MOONPAY, walletAddress: freshEvmAddress(), network: ETHEREUM, cryptoCurrencyCode: ETH });
    await expect(cred()).rejects.toMatchObject({ code: 7 });
    await expect(init()).rejects.toMatchObject({ code: 7 });

    const { policyId } = await sdkClient(emu).createPolicy({ policyName: "on-ramp credentials", effect: "EFFECT_ALLOW", condition: "activity.resource == 'ON_RAMP_CREDENTIALS' && activity.action == 'CREATE'", notes: "" });
    const created = await cred();
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    await expect(init()).rejects.toMatchObject({ code: 7 });
    await expect(c.deleteFiatOnRampCredential({ fiatOnrampCredentialId: created.fiatOnRampCredentialId })).rejects.toMatchObject({ code: 7 });

    const { policyId: p2 } = await sdkClient(emu).createPolicy({ policyName: "buy crypto", effect: "EFFECT_ALLOW", condition: "activity.resource == 'FIAT_TRANSACTION' && activity.action == 'CREATE'", notes: "" });
    const started = await init();
    expect(await status(started.onRampTransactionId, u.key)).toBe("PENDING");
    await sdkClient(emu).deletePolicies({ policyIds: [policyId, p2] });
    await sdkClient(emu).deleteFiatOnRampCredential({ fiatOnrampCredentialId: created.fiatOnRampCredentialId });
  });

  it("with a 2-of-2 root quorum a credential waits for the second root user; nothing exists until then", async () => {
    const e = await startTestEmulator();
    try {
      const key = (((await (await fetch(`${e.url}/emulator/v1/info`)).json()) as { onRampEncryptionPublicKey: string }).onRampEncryptionPublicKey);
      const root = sdkClient(e);
      const { id: secondId, key: second } = await createApiKeyUser(e, "root-2");
      await root.updateRootQuorum({ threshold: 2, userIds: [e.info.rootUserId, secondId] });
      const proposal = await root.createFiatOnRampCredential({ onrampProvider: MOONPAY, publishableApiKey: "pk", encryptedSecretApiKey: encryptOnRampSecret("sk", key) });
      expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      expect((await root.listFiatOnRampCredentials({})).fiatOnRampCredentials).toHaveLength(0);
      const approved = await sdkClient(e, second).approveActivity({ fingerprint: proposal.activity.fingerprint });
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const id = (approved.activity.result as { createFiatOnRampCredentialResult: { fiatOnRampCredentialId: string } }).createFiatOnRampCredentialResult.fiatOnRampCredentialId;
      expect((await root.listFiatOnRampCredentials({})).fiatOnRampCredentials.map((x) => x.fiatOnrampCredentialId)).toEqual([id]);
      // The key differs per fixture only: another instance of the same fixture opens the same envelopes.
      expect(key).toBe(onRampKey);
    } finally {
      await e.stop();
    }
  });
});
