import { describe, expect, it } from "vitest";
import { RequestGate } from "./request-gate.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("RequestGate", () => {
  it("an exclusive section waits for shared work under way, holds back new shared work, and a failing one does not block the next", async () => {
    const gate = new RequestGate();
    const log: string[] = [];
    let release!: () => void;
    const slow = gate.shared(async () => {
      log.push("shared-1 start");
      await new Promise<void>((resolve) => (release = resolve));
      log.push("shared-1 end");
    });
    await tick();
    const failing = gate.exclusive(async () => {
      log.push("exclusive-1");
      throw new Error("boom");
    });
    const second = gate.exclusive(async () => {
      log.push("exclusive-2");
      return 2;
    });
    const later = gate.shared(async () => log.push("shared-2"));
    await tick();
    expect(log).toEqual(["shared-1 start"]);
    release();
    await slow;
    await expect(failing).rejects.toThrow("boom");
    expect(await second).toBe(2);
    await later;
    expect(log).toEqual(["shared-1 start", "shared-1 end", "exclusive-1", "exclusive-2", "shared-2"]);
    // Idle again: shared work runs at once.
    expect(await gate.shared(async () => "free")).toBe("free");
  });
});
