import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadScenarios } from "../contracts/harness/load.js";
import { packageRoot } from "./core/package-root.js";
import { parityMarkdown, parityRows } from "./parity.js";
import { registry } from "./families.js";

const { notEmulatedReason } = registry;

describe("parity table", () => {
  const rows = parityRows(loadScenarios([join(packageRoot(), "scenarios")]));

  it("docs/parity.md is what the registry and the scenarios say (run `npm run gen:parity` after changing either)", () => {
    expect(readFileSync(join(packageRoot(), "docs", "parity.md"), "utf8")).toBe(parityMarkdown(rows));
  });

  it("lists every operation of both surfaces, the published documents' and @turnkey/http 6.6's, the auth proxy's as emulated", () => {
    // 182 coordinator paths of the wider document (without its two /tkhq/ internal ones), 11 more
    // that @turnkey/http 6.6 calls, 12 of the auth proxy.
    expect(rows.length).toBe(205);
    for (const name of ["get_organization", "create_velocity_control", "list_tvc_quorum_keys", "create_api_only_users", "init_import_secrets"]) expect(rows.map((r) => r.name)).toContain(name);
    expect(rows.filter((r) => r.kind === "proxy").every((r) => r.emulated)).toBe(true);
    expect(rows.find((r) => r.name === "get_boot_proof")).toMatchObject({ emulated: false, why: expect.stringContaining("enclave") });
  });

  it("every operation that is not emulated says why it cannot be (no generic \"not emulated yet\")", () => {
    const unexplained = rows.filter((r) => !r.emulated && notEmulatedReason(r.name) === "it is not emulated yet").map((r) => r.name);
    expect(unexplained).toEqual([]);
  });
});
