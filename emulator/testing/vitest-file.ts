/**
 * The setup file `turnkey-emulator/vitest` adds to the project (vitest.ts): before each test
 * file, it leases the worker's emulator for this file from the pool in the main process
 * (lease.ts), reset to the fixture, and writes its connection into the object
 * `inject("turnkey")` answers in this worker, so the file's `inject("turnkey")` is its own.
 */
import { expect, inject } from "vitest";
import { leaseFromBroker } from "./lease.js";

const broker = inject("turnkeyLease");
if (broker) {
  const slot = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? "1";
  const leased = await leaseFromBroker(broker, { slot, file: expect.getState().testPath });
  Object.assign(inject("turnkey"), leased);
}
