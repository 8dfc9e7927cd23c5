/** `emulator conformance` argument handling (runs that reach a target are in the other harness tests). */
import { describe, expect, it, vi } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conformanceCommand, emulatedOperations } from "../../emulator/cli-conformance.js";

const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((s: unknown) => void err.push(String(s)));
  try {
    const code = await conformanceCommand(argv, env, (s) => out.push(s));
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    spy.mockRestore();
  }
};

describe("emulator conformance arguments", () => {
  it("prints usage with every flag", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const f of ["--target", "--organization-id", "--api-public-key", "--api-private-key", "--proxy-url", "--proxy-config-id", "--compare", "--targets", "--json", "--junit", "--coverage", "--rate", "--scope"]) expect(r.out).toContain(f);
  });

  it("refuses unknown flags, bad values and a URL target without credentials (exit 2)", async () => {
    expect((await run(["--nope"])).code).toBe(2);
    expect((await run(["--scope", "everywhere"])).err).toMatch(/--scope must be auto, suborg or root/);
    expect((await run(["--rate=-1"])).err).toMatch(/--rate must be a number/);
    const r = await run(["--target", "https://api.example.test"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/needs organizationId, apiPublicKey, apiPrivateKey/);
    expect((await run(["--compare", "embedded"])).err).toMatch(/--compare needs two targets/);
    expect((await run(["--compare", "embedded", "ftp://x"])).err).toMatch(/must be "embedded" or an http\(s\) URL/);
  });

  it("reads compare credentials from --targets, and reports scenario file errors (exit 2)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conf-cli-"));
    writeFileSync(join(dir, "bad.yaml"), "name: bad\nsteps:\n  - name: x\n    query: whoamii\n");
    const bad = await run([join(dir, "bad.yaml")]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad\.yaml:4: step 1 "x": query: unknown query operation "whoamii" \(did you mean whoami/);
    writeFileSync(join(dir, "targets.json"), JSON.stringify({ b: { organizationId: "o" } }));
    const partial = await run(["--compare", "embedded", "http://127.0.0.1:9", "--targets", join(dir, "targets.json"), join(dir, "bad.yaml")]);
    expect(partial.code).toBe(2);
  });

  it("runs the embedded emulator by default and prints coverage with what the emulator implements", async () => {
    const r = await run(["--coverage", "--filter", "^whoami$"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/PASS {2}whoami/);
    expect(r.out).toMatch(/Coordinator: 1 of \d+ routed operations exercised\n {2}\+ query whoami/);
    expect(r.out).toMatch(/Emulator implements \d+ of \d+ routed operations/);
    const implemented = emulatedOperations();
    expect(implemented.has("query whoami")).toBe(true);
    expect(implemented.has("submit create_users")).toBe(true);
    expect(implemented.has("query get_boot_proof")).toBe(false); // needs a real enclave: stays 501
  });
});
