/**
 * The committed bytecode is what the committed Solidity compiles to (solc-js, pinned in
 * devDependencies), so the delegate the emulator installs is the source we can read (and the
 * tests' ERC-20 likewise).
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileGasDelegate, compileTestToken, loadSolc, renderArtifact } from "../../../../scripts/gen-gas-delegate.js";
import { packageRoot } from "../../../core/package-root.js";

describe("gas-station delegate artifact", () => {
  it("is what EmulatorGasDelegate.sol and TestToken.sol compile to", () => {
    const solc = loadSolc();
    expect(readFileSync(join(packageRoot(), "emulator/families/chains/gas-station/artifact.ts"), "utf8")).toBe(renderArtifact(compileGasDelegate(solc)));
    expect(readFileSync(join(packageRoot(), "test/networks/test-token.artifact.ts"), "utf8")).toBe(compileTestToken(solc));
  }, 120_000);
});
