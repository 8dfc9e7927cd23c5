/** bitcoinjs-lib, loaded on first use, with its elliptic-curve library (for Taproot) set once. */
import { createRequire } from "node:module";
import { lazyModule } from "../core/lazy-module.js";

const require = createRequire(import.meta.url);

export const bitcoin = lazyModule<typeof import("bitcoinjs-lib")>("bitcoinjs-lib", (m) => m.initEccLib(require("@bitcoinerlab/secp256k1")));
