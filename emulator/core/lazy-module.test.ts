import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { lazyModule } from "./lazy-module.js";

describe("lazyModule", () => {
  it("loads the module on first property access and serves its members", () => {
    const require = createRequire(import.meta.url);
    const id = require.resolve("bitcoinjs-lib");
    delete require.cache[id];
    const bitcoin = lazyModule<typeof import("bitcoinjs-lib")>("bitcoinjs-lib");
    expect(require.cache[id]).toBeUndefined();
    expect(bitcoin.networks.bitcoin.bech32).toBe("bc");
    expect(require.cache[id]).toBeDefined();
  });
});
