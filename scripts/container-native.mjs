/**
 * The native modules of the container image (Dockerfile), run in the directory whose
 * node_modules it reads:
 *
 *   node scripts/container-native.mjs lend DIR   better-sqlite3's built binary as a local prebuild in DIR
 *   node scripts/container-native.mjs prune      keep this platform's EDR binary only, then load each native module
 *
 * lend: better-sqlite3 installs through prebuild-install, which looks in
 * `$npm_config_better_sqlite3_local_prebuilds` for `<name>-v<version>-node-v<abi>-<platform><libc>-<arch>.tar.gz`
 * before it downloads one from GitHub, and compiles from source when neither is there (~150 s
 * on two cores, and a compiler). The image's build stage lends the binary its `npm ci` got to the
 * runtime's install of the package; CI, where GitHub cannot be reached, lends the checkout's own
 * to the build stage (same Node ABI).
 *
 * prune: @nomicfoundation/edr 0.13 (the EVM of the embedded chains) depends on all seven
 * platforms' binaries (~190 MB); the image keeps the one this platform loads.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const cwd = process.cwd();
const require = createRequire(join(cwd, "package.json"));
const linux = process.platform === "linux";
const musl = linux && !process.report.getReport().header.glibcVersionRuntime;

const [command, dir] = process.argv.slice(2);
if (command === "lend" && dir) lend(resolve(dir));
else if (command === "prune") prune();
else {
  console.error("usage: node scripts/container-native.mjs lend DIR | prune");
  process.exit(2);
}

function lend(dir) {
  const pkgDir = join(cwd, "node_modules/better-sqlite3");
  const binary = "build/Release/better_sqlite3.node";
  if (!existsSync(join(pkgDir, binary))) throw new Error(`${join(pkgDir, binary)} is not built`);
  const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  // prebuild-install's default name (its util.js urlTemplate); libc is empty for glibc.
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${musl ? "musl" : ""}-${process.arch}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-czf", join(dir, name), "-C", pkgDir, binary]);
  console.log(`lent ${join(dir, name)}`);
}

function prune() {
  const scope = join(cwd, "node_modules/@nomicfoundation");
  if (existsSync(scope)) {
    const keep = `edr-${process.platform}-${process.arch}${linux ? (musl ? "-musl" : "-gnu") : process.platform === "win32" ? "-msvc" : ""}`;
    for (const entry of readdirSync(scope)) if (entry.startsWith("edr-") && entry !== keep) rmSync(join(scope, entry), { recursive: true, force: true });
  }
  // Each native module loads here, or the image is not built.
  new (require("better-sqlite3"))(":memory:").prepare("select 1").get();
  require("litesvm");
  if (existsSync(scope)) require("@nomicfoundation/edr");
  console.log("native modules load: better-sqlite3, litesvm" + (existsSync(scope) ? ", @nomicfoundation/edr" : ""));
}
