/**
 * One emulator instance per test worker, all kept in the test runner's main process (where the
 * global setup runs), each reset to the fixture for every test file it serves: a file sees only
 * its own state, whichever worker runs it and whatever ran there before. Instances in one process
 * share the loaded code, so each extra worker costs a few megabytes (`npm run bench -- pool`),
 * where an instance in a process of its own would cost that process.
 *
 * A worker is a slot (vitest's VITEST_POOL_ID, jest's JEST_WORKER_ID): its instance starts on
 * the slot's first lease. A lease names the test file; a new file resets the instance (store,
 * keyring, clock, faults) and, with a seed, starts the random values from `<seed>/<file>` (the
 * file's path from the project root), so a file's ids do not depend on which worker runs it or
 * what ran before. Leasing again for the same file (several calls in one file) changes nothing.
 */
import { relative, sep } from "node:path";
import type { EmulatorOptions, RunningEmulator } from "../index.js";
import { mergeCoverage, writeCoverageFiles, type CoverageReport } from "../families/coverage/index.js";
import { startForTests } from "./start.js";

type Slot = { emulator: Promise<RunningEmulator>; started?: RunningEmulator; file?: string };

export class EmulatorPool {
  private readonly slots = new Map<string, Slot>();
  private readonly seed: string | undefined;
  private readonly coverageOut: string | undefined;

  /** `root`: the project root, against which file paths are named in seeds. */
  constructor(
    private readonly options: EmulatorOptions,
    private readonly root: string,
  ) {
    this.seed = options.seed;
    this.coverageOut = options.coverageOut;
  }

  /** The instance of `slot`, started on first use (each with the options, but the coverage file: the pool writes one for all). */
  instance(slot: string): Promise<RunningEmulator> {
    let s = this.slots.get(slot);
    if (!s) {
      const seed = this.seed === undefined ? undefined : `${this.seed}/worker ${slot}`;
      const created: Slot = { emulator: startForTests({ ...this.options, seed, coverageOut: undefined }) };
      created.emulator.then(
        (emu) => (created.started = emu),
        () => this.slots.delete(slot), // the next lease tries again and reports its own failure
      );
      this.slots.set(slot, (s = created));
    }
    return s.emulator;
  }

  /** The instance a test file runs against: its worker's, reset to the fixture unless this file already holds it. */
  async lease(slot: string, file: string | undefined): Promise<RunningEmulator> {
    const emu = await this.instance(slot);
    this.handOver(slot, emu, file);
    return emu;
  }

  /** `lease` for a worker whose instance is running (jest in band: the test runs in this process and cannot wait). */
  leaseStarted(slot: string, file: string | undefined): RunningEmulator | undefined {
    const emu = this.slots.get(slot)?.started;
    if (emu) this.handOver(slot, emu, file);
    return emu;
  }

  private handOver(slot: string, emu: RunningEmulator, file: string | undefined): void {
    const s = this.slots.get(slot)!;
    if (file !== undefined && s.file === file) return;
    s.file = file;
    const name = file === undefined ? undefined : relative(this.root, file).split(sep).join("/");
    emu.reset(this.seed === undefined ? {} : { seed: `${this.seed}/${name ?? `worker ${slot}`}` });
  }

  /** Every instance's coverage report, merged (undefined when no instance started). */
  async coverage(): Promise<CoverageReport | undefined> {
    const running = (await Promise.allSettled([...this.slots.values()].map((s) => s.emulator))).flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const reports = await Promise.all(running.map(async (emu) => (await (await fetch(`${emu.url}/emulator/v1/coverage`)).json()) as CoverageReport));
    return reports.length ? mergeCoverage(reports) : undefined;
  }

  /** Writes the merged coverage when the options ask for it (`coverageOut`), then stops every instance. */
  async stop(): Promise<void> {
    try {
      if (this.coverageOut) {
        const report = await this.coverage();
        if (report) writeCoverageFiles(report, this.coverageOut);
      }
    } finally {
      const running = [...this.slots.values()];
      this.slots.clear();
      await Promise.allSettled(running.map(async (s) => (await s.emulator).stop()));
    }
  }
}
