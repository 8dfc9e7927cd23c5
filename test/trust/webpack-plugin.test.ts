/**
 * `turnkey-emulator/webpack`: a real webpack compile of an entry importing @turnkey/crypto holds
 * the emulator's keys in development mode and the production keys in production mode.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import webpack from "webpack";
import { TurnkeyEmulatorTrustPlugin } from "../../emulator/trust/webpack.js";
import { instanceKeysFor, instancePublicKeys } from "../../emulator/core/auth/instance-keys.js";
import { loadFixture } from "../../emulator/index.js";

const PRODUCTION_SIGNER = "04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569";
const emulator = instancePublicKeys(instanceKeysFor(loadFixture().organization.organizationId));
const ENTRY = fileURLToPath(new URL("./fixtures/vite-app/main.js", import.meta.url));

const savedNodeEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = savedNodeEnv;
  vi.restoreAllMocks();
});

async function compile(mode: "development" | "production", plugin: TurnkeyEmulatorTrustPlugin): Promise<string> {
  process.env.NODE_ENV = mode;
  const outDir = mkdtempSync(join(tmpdir(), "trust-webpack-"));
  const compiler = webpack({
    mode,
    entry: ENTRY,
    target: "web",
    devtool: false,
    context: fileURLToPath(new URL("../../", import.meta.url)),
    output: { path: outDir, filename: "main.js" },
    optimization: { minimize: false },
    // Bundle @turnkey/crypto's own modules (where the keys are), not its whole dependency tree.
    externals: ({ request }, callback) => (request && !request.startsWith("@turnkey/") && !request.startsWith(".") && !request.startsWith("/") ? callback(undefined, `commonjs ${request}`) : callback()),
    plugins: [plugin],
  });
  const stats = await new Promise<webpack.Stats>((resolve, reject) => compiler.run((err, s) => (err ? reject(err) : resolve(s!))));
  await new Promise<void>((resolve) => compiler.close(() => resolve()));
  expect(stats.hasErrors(), stats.toString("errors-only")).toBe(false);
  return readFileSync(join(outDir, "main.js"), "utf8");
}

describe("the webpack plugin", () => {
  it("development mode: the bundle holds the emulator's keys", async () => {
    const out = await compile("development", new TurnkeyEmulatorTrustPlugin());
    expect(out).toContain(emulator.signerPublicKey);
    expect(out).toContain(emulator.notarizerPublicKey);
    expect(out).toContain(emulator.tlsFetcherPublicKey);
    expect(out).not.toContain(PRODUCTION_SIGNER);
  }, 120_000);

  it("production mode: one warning and the production keys, unless forced", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const prod = await compile("production", new TurnkeyEmulatorTrustPlugin());
    expect(prod).toContain(PRODUCTION_SIGNER);
    expect(prod).not.toContain(emulator.signerPublicKey);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^turnkey-emulator\/webpack: NODE_ENV=production/);
    const forced = await compile("production", new TurnkeyEmulatorTrustPlugin({ force: true }));
    expect(forced).toContain(emulator.signerPublicKey);
    expect(forced).not.toContain(PRODUCTION_SIGNER);
  }, 120_000);
});
