/**
 * The published package's `emulator` command, present only while `npm pack` / `npm publish` runs
 * (prepack adds it, postpack removes it).
 *
 * Why not a `bin` field: npm 11's `npx <name>` first looks for <name> in the *current project's*
 * package.json `bin`; when it is there, npx installs the project itself into its npx cache and runs
 * its `prepare` script (here the whole build, ~46 s), every later run costs ~2.4 s of tree loading,
 * and an interrupted first run leaves a cache entry that breaks every later `npx emulator`. So the
 * checkout declares no `bin`: its `npx emulator` finds node_modules/.bin/emulator, linked by the
 * `"emulator": "file:bin"` development dependency (bin/package.json), and starts in ~0.2 s.
 *
 * The package declares `"directories": { "bin": "dist/bin" }` instead, which npm (and pnpm, yarn)
 * turn into one command per file of that folder when they read the package: in the tarball that
 * is dist/bin/emulator, written here; in the checkout the folder does not exist. The file starts
 * the bundled CLI through a dynamic import(), which works whether Node reads an extensionless file
 * as CommonJS or as an ES module.
 *
 *   node scripts/pack-bin.mjs add | remove
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const BIN_DIR = fileURLToPath(new URL("../dist/bin/", import.meta.url));
export const BIN_FILE = `${BIN_DIR}emulator`;

const SOURCE = `#!/usr/bin/env node
// The emulator's command (turnkey-emulator's scripts/pack-bin.mjs wrote this file when the package was packed).
import("../bundle/cli.js").catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

export function addBin() {
  mkdirSync(BIN_DIR, { recursive: true });
  writeFileSync(BIN_FILE, SOURCE);
  chmodSync(BIN_FILE, 0o755);
}

export function removeBin() {
  rmSync(BIN_DIR, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const action = process.argv[2];
  if (action === "add") addBin();
  else if (action === "remove") removeBin();
  else {
    console.error("usage: node scripts/pack-bin.mjs add | remove");
    process.exit(2);
  }
}
