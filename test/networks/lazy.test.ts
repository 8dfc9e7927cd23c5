/** Chains cost nothing until used: startEmulator loads neither engine (checked in a fresh process). */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

it("loads EDR and LiteSVM only on the first use of an EVM chain / a Solana cluster", () => {
  const probe = fileURLToPath(new URL("./lazy-probe.ts", import.meta.url));
  const out = execFileSync(process.execPath, ["--import", "tsx", probe], { encoding: "utf8", timeout: 60_000 });
  expect(JSON.parse(out)).toEqual({
    afterStart: { edr: false, litesvm: false },
    afterEvm: { edr: true, litesvm: false },
    afterSolana: { edr: true, litesvm: true },
  });
}, 90_000);
