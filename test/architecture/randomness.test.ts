/**
 * An instance draws every random value from its `rt.random` (emulator/core/random.ts), so that
 * `--seed` makes a run repeat. This scans the sources for draws that bypass it: node:crypto's
 * generators, Math.random, WebCrypto's getRandomValues, a noble key drawn with no seed bytes,
 * and the primitives' own defaults (a key pair or ephemeral keys made without a source).
 * test/deterministic-runs.test.ts checks the outcome end to end; this names the line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

/** Files that draw on purpose without the instance's source, and why. */
const EXEMPT: Record<string, string> = {
  "emulator/core/random.ts": "the source itself (the system's generator when unseeded)",
  "emulator/core/store/seal.ts": "the sealing key and IVs of secrets at rest: a seed printed in a CI log must not open a database file",
  "emulator/core/http/errors.ts": "the id of an internal error names one failure in the log, and must not repeat across runs",
  "emulator/record/": "the recorder's and replayer's own client keys and the fixture it writes: not an instance's answers",
};

const DRAWS: [RegExp, string][] = [
  [/\brandom(Bytes|UUID|Int|Fill(Sync)?)\s*\(/, "node:crypto's generator"],
  [/\bMath\.random\s*\(/, "Math.random"],
  [/\bgetRandomValues\s*\(/, "WebCrypto's generator"],
  [/\brandomSecretKey\s*\(\s*\)/, "a noble key drawn with no seed bytes"],
  [/\bgenerateKeyPair(Sync)?\s*\(/, "node:crypto's key generation"],
  [/\bgenerate(P256KeyPair|EphemeralKeys|EnclaveKeys)\s*\(\s*\)/, "a key pair drawn from the system's generator (pass rt.random)"],
  [/\bgenerateMnemonic\b.*from "@scure\/bip39"/, "@scure/bip39's generateMnemonic (derivation/keys/mnemonic.ts takes a source)"],
];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === "generated" || e.name === "assets" ? [] : sources(path);
    return /(?<!\.test|\.d|\.fixture)\.ts$/.test(e.name) ? [path] : [];
  });
}

describe("randomness", () => {
  it("every draw of an instance goes through rt.random (emulator/core/random.ts), but for the listed exceptions", () => {
    const found: string[] = [];
    for (const file of sources("emulator")) {
      if (Object.keys(EXEMPT).some((e) => file === e || (e.endsWith("/") && file.startsWith(e)))) continue;
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (/^\s*(\*|\/\/)/.test(line)) return; // comments
        for (const [pattern, what] of DRAWS) if (pattern.test(line)) found.push(`${relative(ROOT, join(ROOT, file))}:${i + 1}: ${what}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it("its exceptions still draw (a stale exception is removed)", () => {
    for (const file of Object.keys(EXEMPT).filter((f) => !f.endsWith("/"))) {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(DRAWS.some(([p]) => p.test(text)), file).toBe(true);
    }
  });
});
