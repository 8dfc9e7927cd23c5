/**
 * Unmodified application code: `encryptOnRampSecret(secret)` with no key argument encrypts to
 * @turnkey/crypto's compiled-in production on-ramp key. Run under the trust preload
 * (`node --import turnkey-emulator/trust`), it encrypts to the emulator's key instead, and the
 * emulator opens it; without the preload the emulator refuses the envelope.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { fileURLToPath } from "node:url";
import { sdkClient } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const APP = `import { encryptOnRampSecret } from "@turnkey/crypto"; process.stdout.write(encryptOnRampSecret(process.env.SECRET));`;

/** The one-line app in a child `node`, with or without the trust preload, from the package root (where `turnkey-emulator/trust` resolves). */
async function encryptInApp(secret: string, organizationId: string, preload: boolean): Promise<string> {
  const env: Record<string, string | undefined> = { ...process.env, SECRET: secret, TURNKEY_EMULATOR_ORG_ID: organizationId };
  for (const k of ["NODE_OPTIONS", "NODE_ENV", "EMULATOR_TRUST_FIXTURE", "EMULATOR_TRUST_FORCE"]) delete env[k];
  const args = [...(preload ? ["--import", "turnkey-emulator/trust"] : []), "--input-type=module", "-e", APP];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) throw new Error(`app exited ${code}: ${err}`);
  return out.trim();
}

const emu = useTestEmulator();

describe("encryptOnRampSecret in unmodified code under the trust preload", () => {
  it("encrypts to the emulator's on-ramp key: the credential is accepted and its secret signs MoonPay URLs", async () => {
    const c = sdkClient(emu);
    const envelope = await encryptInApp("sk_from_unmodified_app", emu.info.organizationId, true);
    const { fiatOnRampCredentialId } = await c.createFiatOnRampCredential({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_MOONPAY", publishableApiKey: "pk_app", encryptedSecretApiKey: envelope });
    const query = "?apiKey=pk_app&currencyCode=eth";
    const init = await c.initFiatOnRamp({
      onrampProvider: "FIAT_ON_RAMP_PROVIDER_MOONPAY",
      walletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      network: "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM",
      cryptoCurrencyCode: "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH",
      urlForSignature: `https://buy.moonpay.com${query}`,
    });
    // The signature proves the emulator decrypted exactly the app's secret.
    expect(init.onRampUrlSignature).toBe(createHmac("sha256", "sk_from_unmodified_app").update(query).digest("base64"));
    await c.deleteFiatOnRampCredential({ fiatOnrampCredentialId: fiatOnRampCredentialId });
  }, 60_000);

  it("without the preload the envelope is for the production key, and the emulator refuses it naming the field", async () => {
    const envelope = await encryptInApp("sk_from_unmodified_app", emu.info.organizationId, false);
    await expect(
      sdkClient(emu).createFiatOnRampCredential({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_MOONPAY", publishableApiKey: "pk_app", encryptedSecretApiKey: envelope }),
    ).rejects.toThrow(/encryptedSecretApiKey could not be decrypted with the on-ramp encryption key/);
  }, 60_000);
});
