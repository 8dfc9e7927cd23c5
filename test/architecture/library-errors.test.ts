/**
 * Library code speaks InputError (emulator/core/input-error.ts), never the wire: no module
 * under emulator/signing, derivation or bundles, nor account derivation and signWith resolution
 * (the wallets family's accounts.ts and signer.ts), imports emulator/core/errors.ts, the module
 * of the wire errors. The request boundary (`withField`) turns an InputError into the
 * service's 400 naming the field (emulator/core/input-error.test.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph.js";

describe("architecture: library code does not speak the wire", () => {
  const LIBRARY = ["signing", "derivation", "bundles"];
  /** Account derivation and signWith resolution: library code that lives in the wallets family. */
  const LIBRARY_FILES = ["families/wallets/accounts.ts", "families/wallets/signer.ts"];
  /** The emulator's tree, and the core's folder, which holds errors.ts. */
  const tree = join(ROOT, "emulator");
  const here = join(tree, "core");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : /\.(ts|js)$/.test(d.name) ? [join(dir, d.name)] : []));
  /** An import (static, re-export or dynamic) of emulator/core/errors.ts, the module of the wire-error constructors. */
  const importsWireErrors = (file: string, source: string): boolean =>
    [...source.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].some(([, spec]) => {
      if (!spec!.startsWith(".")) return false;
      const target = relative(here, join(file, "..", spec!)).replace(/\.(js|ts)$/, "");
      return target === "errors";
    });

  it("the check recognises the imports it forbids", () => {
    const f = join(tree, "signing", "x.ts");
    expect(importsWireErrors(f, 'import { invalidArgument } from "../core/errors.js";')).toBe(true);
    expect(importsWireErrors(join(tree, "derivation", "keys", "x.ts"), 'export { notFound } from "../../core/errors";')).toBe(true);
    expect(importsWireErrors(f, 'const m = await import("../core/errors.js");')).toBe(true);
    expect(importsWireErrors(f, 'import { InputError } from "../core/input-error.js";')).toBe(false);
    expect(importsWireErrors(f, 'import { describeError } from "./error-text.js";')).toBe(false);
  });

  it("no file under emulator/signing, derivation or bundles, nor account derivation or signWith resolution, imports emulator/errors.ts", () => {
    const all = [...LIBRARY.flatMap((d) => files(join(tree, d))), ...LIBRARY_FILES.map((f) => join(tree, f))];
    expect(all.length).toBeGreaterThan(50);
    const offenders = all.filter((f) => importsWireErrors(f, readFileSync(f, "utf8"))).map((f) => relative(tree, f));
    expect(offenders).toEqual([]);
  });
});
