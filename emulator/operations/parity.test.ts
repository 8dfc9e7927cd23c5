import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadScenarios } from "../../contracts/harness/load.js";
import { packageRoot } from "../package-root.js";
import { parityMarkdown, parityRows } from "./parity.js";
import { notEmulatedReason } from "./not-emulated.js";

describe("parity table", () => {
  const rows = parityRows(loadScenarios([join(packageRoot(), "scenarios")]));

  it("docs/parity.md is what the registry and the scenarios say (run `npm run gen:parity` after changing either)", () => {
    expect(readFileSync(join(packageRoot(), "docs", "parity.md"), "utf8")).toBe(parityMarkdown(rows));
  });

  it("lists every published operation of both surfaces, the auth proxy's as emulated", () => {
    expect(rows.filter((r) => !r.retired).length).toBe(185);
    expect(rows.filter((r) => r.retired).map((r) => r.name)).toEqual(["create_api_only_users", "eth_send_raw_transaction", "init_import_secrets"]);
    expect(rows.filter((r) => r.kind === "proxy").every((r) => r.emulated)).toBe(true);
    expect(rows.find((r) => r.name === "get_boot_proof")).toMatchObject({ emulated: false, why: expect.stringContaining("enclave") });
  });

  it("every operation that is not emulated says why it cannot be (no generic \"not emulated yet\")", () => {
    const unexplained = rows.filter((r) => !r.emulated && !r.retired && notEmulatedReason(r.name) === "it is not emulated yet").map((r) => r.name);
    expect(unexplained).toEqual([]);
  });
});
