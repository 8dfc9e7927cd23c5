/**
 * What the CLI answers without starting anything: its usage (no command, --help, -h, help) and
 * its version (--version, -v). Kept apart from cli.ts so that the built CLI's entry
 * (scripts/bundle.ts) answers them before it loads the emulator's bundle.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./core/package-root.js";
import { startOptionsUsage } from "./cli-start-options.js";

export const USAGE = `usage: emulator start [--port N] [--host H] [--db FILE] [--fixtures FILE] [--chain CAIP2=URL ...]
       emulator conformance [options]   (see: emulator conformance --help)
       emulator env [--url URL] [--format export|dotenv|json]   (see: emulator env --help)
       emulator init [--dir DIR] [--force]   (writes turnkey-emulator.jsonc: see emulator init --help)
       emulator record --upstream URL [--proxy-upstream URL] --out FILE   (see: emulator record --help)
       emulator replay FILE [--target embedded|URL] [--json OUT] [--junit OUT]   (see: emulator replay --help)
       emulator --version

${startOptionsUsage()}

  Each option can be set by its environment variable instead (a flag given wins): a
  repeatable one's values separated by commas or spaces, a switch's 1 or 0, e.g.
  docker run -e EMULATOR_DB=/data/emulator.db -e EMULATOR_LOG=1 ...`;

/** Prints the usage or the version when `argv` asks for one and says whether it did. */
export function answerAtOnce(argv: string[]): boolean {
  const [command] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return true;
  }
  if (command === "--version" || command === "-v") {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string };
    console.log(pkg.version);
    return true;
  }
  return false;
}
