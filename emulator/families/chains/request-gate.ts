/**
 * A readers-writer gate for one chain's JSON-RPC: ordinary requests run side by side; an
 * exclusive section (a read-then-write such as crediting a balance) waits for those under way,
 * holds back new ones until it is done, and runs one at a time. Nothing can then slip between
 * its read and its write: neither another credit nor a transaction mined meanwhile.
 */
export class RequestGate {
  private active = 0;
  private idle: (() => void)[] = [];
  /** Settles when every exclusive section queued so far is done; undefined while none is. */
  private barrier: Promise<void> | undefined;
  private queued = 0;

  async shared<T>(fn: () => Promise<T>): Promise<T> {
    while (this.barrier) await this.barrier;
    this.active++;
    try {
      return await fn();
    } finally {
      if (--this.active === 0) for (const wake of this.idle.splice(0)) wake();
    }
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = async (): Promise<T> => {
      while (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
      return fn();
    };
    const result = (this.barrier ?? Promise.resolve()).then(run);
    const done = result.then(
      () => undefined,
      () => undefined,
    );
    this.barrier = done.then(() => {
      if (--this.queued === 0) this.barrier = undefined;
    });
    return result;
  }
}
