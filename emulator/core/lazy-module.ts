/**
 * A dependency loaded on first use, synchronously: chain libraries (viem, bitcoinjs-lib...)
 * cost hundreds of milliseconds to import, and most emulator runs never sign a Bitcoin
 * transaction or decode an ABI. `lazyModule<typeof import("x")>("x")` returns a stand-in
 * whose first property access loads the module (its CommonJS build, through require).
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export function lazyModule<T extends object>(id: string, onLoad?: (m: T) => void): T {
  let loaded: T | undefined;
  const load = (): T => {
    if (!loaded) {
      loaded = require(id) as T;
      onLoad?.(loaded);
    }
    return loaded;
  };
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(load(), key),
    has: (_target, key) => Reflect.has(load(), key),
  });
}
