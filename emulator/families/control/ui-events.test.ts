import { assert, describe, expect, it } from "vitest";
import { openStore } from "../../families.js";
import { Keyring } from "../../core/keyring.js";
import { systemClock } from "../../core/clock.js";
import type { Runtime } from "../../core/runtime.js";
import { createRandom } from "../../core/random.js";
import { stateVersion } from "./ui-events.js";
import { controlState } from "./state.js";

function runtime(): Runtime {
  const store = openStore();
  return { store, keyring: new Keyring(store.sealer), clock: systemClock(), random: createRandom(), families: { control: controlState({}, []) } } as unknown as Runtime;
}

const write = (rt: Runtime, key: string) => rt.store.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(key, key);

describe("stateVersion", () => {
  it("stays put while nothing moves, and moves on a write, a clock move, a request, a snapshot and a restore", () => {
    const rt = runtime();
    const seen = new Set<string>();
    const step = (what: string, fn: () => void) => {
      fn();
      const v = stateVersion(rt);
      expect(seen.has(v), what).toBe(false);
      seen.add(v);
      expect(stateVersion(rt), `${what}: read twice`).toBe(v);
    };
    step("start", () => undefined);
    step("a write", () => write(rt, "a"));
    step("a clock move", () => (rt.clock.offsetMs += 1000));
    step("a logged request", () =>
      rt.families.control.requests.add({ at: "", atMs: 0, method: "POST", path: "/x", organizationId: null, caller: null, status: 200, latencyMs: 1, activityId: null, errorCode: null, turnkeyErrorCode: null }),
    );
    let snapshotId = "";
    step("a snapshot", () => (snapshotId = rt.families.control.snapshots.take(rt, "s").id));
    step("another write", () => write(rt, "b"));
    // The restored store is a new connection whose write count starts again: the version still differs.
    step("a restore", () => rt.families.control.snapshots.restore(rt, snapshotId));
  });
});

describe("stateVersion and rolled-back writes", () => {
  it("stays put when a transaction rolls back (also a nested one) and across an image; moves on a commit", () => {
    const rt = runtime();
    const v0 = stateVersion(rt);
    expect(() =>
      rt.store.tx(() => {
        write(rt, "rolled back");
        throw new Error("refused");
      }),
    ).toThrow("refused");
    expect(stateVersion(rt)).toBe(v0);
    // A savepoint rolled back inside a transaction that rolls back too: taken off once.
    expect(() =>
      rt.store.tx(() => {
        write(rt, "outer");
        expect(() => rt.store.tx(() => (write(rt, "inner"), assert.fail("inner refused")))).toThrow("inner refused");
        throw new Error("outer refused");
      }),
    ).toThrow("outer refused");
    expect(stateVersion(rt)).toBe(v0);
    rt.store.image();
    expect(stateVersion(rt)).toBe(v0);
    // A savepoint rolled back inside a transaction that commits: its one write counts.
    rt.store.tx(() => {
      write(rt, "kept");
      expect(() => rt.store.tx(() => (write(rt, "dropped"), assert.fail("dropped")))).toThrow("dropped");
    });
    const v1 = stateVersion(rt);
    expect(v1).not.toBe(v0);
    write(rt, "outside a transaction");
    expect(stateVersion(rt)).not.toBe(v1);
  });
});
