import { describe, expect, it } from "vitest";
import { ActivityTurns } from "./turns.js";

/** A piece of work that runs until released, recording when it starts and ends. */
function gated(log: string[], name: string, answer: unknown = name) {
  let release!: () => void;
  let fail!: (err: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const work = async () => {
    log.push(`start ${name}`);
    try {
      await gate;
    } finally {
      log.push(`end ${name}`);
    }
    return answer;
  };
  return { work, release, fail };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("ActivityTurns", () => {
  it("a copy of a request in flight gets its answer without running again", async () => {
    const turns = new ActivityTurns();
    const log: string[] = [];
    const first = gated(log, "first", { id: "a1" });
    const copy = gated(log, "copy");
    const a = turns.take("fp", "req", first.work);
    const b = turns.take("fp", "req", copy.work);
    await tick();
    first.release();
    expect(await a).toEqual({ id: "a1" });
    expect(await b).toBe(await a);
    expect(log).toEqual(["start first", "end first"]);
    expect(turns.busy).toBe(0);
  });

  it("a copy shares the error of the request it waited for", async () => {
    const turns = new ActivityTurns();
    const log: string[] = [];
    const first = gated(log, "first");
    const a = turns.take("fp", "req", first.work);
    const b = turns.take("fp", "req", gated(log, "copy").work);
    first.fail(new Error("Nonce too low"));
    await expect(a).rejects.toThrow("Nonce too low");
    await expect(b).rejects.toThrow("Nonce too low");
    expect(log).toEqual(["start first", "end first"]);
  });

  it("other requests on one activity run one after the other, after a failure too; other activities do not wait", async () => {
    const turns = new ActivityTurns();
    const log: string[] = [];
    const [one, two, three, elsewhere] = ["one", "two", "three", "elsewhere"].map((n) => gated(log, n));
    const runs = [turns.take("fp", "r1", one!.work), turns.take("fp", "r2", two!.work), turns.take("fp", "r3", three!.work), turns.take("other", "r4", elsewhere!.work)];
    await tick();
    expect(log).toEqual(["start one", "start elsewhere"]);
    one!.fail(new Error("refused"));
    await tick();
    expect(log).toEqual(["start one", "start elsewhere", "end one", "start two"]);
    two!.release();
    three!.release();
    elsewhere!.release();
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "fulfilled", "fulfilled", "fulfilled"]);
    expect(log.filter((l) => !l.includes("elsewhere"))).toEqual(["start one", "end one", "start two", "end two", "start three", "end three"]);
    expect(turns.busy).toBe(0);
  });

  it("a request made again after its first run settled runs again (the engine then finds what it recorded)", async () => {
    const turns = new ActivityTurns();
    let runs = 0;
    const work = async () => ++runs;
    expect(await turns.take("fp", "req", work)).toBe(1);
    expect(await turns.take("fp", "req", work)).toBe(2);
  });
});
