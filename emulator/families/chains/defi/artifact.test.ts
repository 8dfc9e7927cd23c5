/**
 * The committed local DeFi bytecode is what the committed Solidity compiles to (solc-js, pinned in
 * devDependencies), so the contracts the emulator deploys are the sources we can read.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileDefi } from "../../../../scripts/gen-defi.js";
import { loadSolc } from "../../../../scripts/gen-gas-delegate.js";
import { packageRoot } from "../../../core/package-root.js";

describe("local DeFi artifact", () => {
  it("is what emulator/families/chains/defi/*.sol compile to", () => {
    expect(readFileSync(join(packageRoot(), "emulator/families/chains/defi/artifact.ts"), "utf8")).toBe(compileDefi(loadSolc()));
  }, 120_000);
});
