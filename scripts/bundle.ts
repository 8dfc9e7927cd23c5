/**
 * `npm run build` step 2: bundles the CLI and the package entry into dist/bundle/ (esbuild,
 * ES modules with code splitting), which bin/emulator.js and the package's "." export load.
 *
 * Why: start-up was dominated by loading ~430 ES modules and ~100 CommonJS files one by one
 * (resolution, file reads, one compile each); one graph in a few chunks loads in about half
 * the CPU time (`npm run bench -- start`). dist/emulator/ (tsc) stays for the type declarations.
 *
 * Packages stay external when they cannot be bundled or are loaded on first use anyway:
 * native addons (better-sqlite3, EDR, LiteSVM), tiny-secp256k1 (reads its .wasm beside
 * itself), cbor-x (optional native extension), and the chain libraries the emulator
 * requires lazily (viem, bitcoinjs-lib, @solana/web3.js, @turnkey/*).
 */
import { build, type BuildOptions, type Plugin } from "esbuild";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

export const EXTERNAL = [
  "better-sqlite3",
  "@nomicfoundation/edr",
  "litesvm",
  "tiny-secp256k1",
  "cbor-x",
  "viem",
  "viem/*",
  "bitcoinjs-lib",
  "@solana/web3.js",
  "@solana/spl-token",
  "@turnkey/*",
];

/**
 * zod's entries (classic, core) re-export every message locale as a namespace (`z.locales`, ~340 kB in 64
 * files) that the bundle would then parse at every start; the emulator uses English messages
 * only (zod's default), so the namespace keeps just `en`.
 */
const zodEnglishOnly: Plugin = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), "..", "locales", "en.js"), namespace: "zod-locales" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path) }));
  },
};

/** How the shipped code is bundled; the bench's emulator child (scripts/bench/emulator-child.ts) is bundled the same way. */
export const SHIPPED: BuildOptions = {
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  chunkNames: "chunks/[name]-[hash]",
  plugins: [zodEnglishOnly],
  // Bundled CommonJS packages (express and its dependencies) call require() for node built-ins.
  banner: { js: "import { createRequire as __emulatorCreateRequire } from 'node:module'; const require = __emulatorCreateRequire(import.meta.url);" },
  logLevel: "warning",
};

/** Writes cli.js, index.js and their chunks to `outdir` (emptied first); it must lie inside the package, whose root the emulator finds by walking up. */
export async function bundle(outdir: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({ ...SHIPPED, entryPoints: { cli: `${root}emulator/cli.ts`, index: `${root}emulator/index.ts` }, outdir, sourcemap: "linked" });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundle(`${root}dist/bundle`);
