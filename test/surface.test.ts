/**
 * The published surface as a client meets it: every coordinator path, stamped by the seeded
 * root user with a body the contract accepts (every required field filled), answers 501 only
 * for the operations the registry lists as not emulated, each 501 saying why; every other
 * path reaches its handler (whatever it decides about the sample values).
 */
import { describe, expect, it } from "vitest";
import { coordinator } from "../contracts/index.js";
import { sampleValue } from "../contracts/sample.js";
import { registry } from "../emulator/families.js";
import { rawPost } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const { entryFor, notEmulated } = registry;

const emu = useTestEmulator();

describe("every published coordinator path", () => {
  it("answers 501 only where the emulator says why it cannot emulate the operation", async () => {
    const unimplemented: string[] = [];
    for (const [path, op] of Object.entries(coordinator)) {
      if (op.kind !== "submit" && op.kind !== "query") continue;
      const body = JSON.stringify(sampleValue(op.request, { organizationId: emu.info.organizationId, timestampMs: String(Date.now()) }));
      const r = await rawPost(emu, path, body);
      if (r.status !== 501) continue;
      unimplemented.push(op.name);
      const reason = notEmulated.get(op.name)?.reason;
      expect(reason, `${op.name} answers 501 without a recorded reason`).toBeDefined();
      expect(r.json.message, op.name).toContain(reason);
      expect(entryFor(op.kind, op.name), `${op.name} has a registry entry yet answers 501`).toBeUndefined();
    }
    // ...and every operation listed as not emulated really answers 501 (no stale reason).
    expect(unimplemented.sort()).toEqual([...notEmulated.keys()].sort());
    // The bar: at most 30 published operations the emulator cannot answer.
    expect(unimplemented.length).toBeLessThanOrEqual(30);
  }, 120_000);
});
