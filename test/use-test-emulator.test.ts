/**
 * useTestEmulator: the handle reads through to an instance started before its suite's tests
 * (with the options given) and stopped after them; outside that window it throws instead of
 * handing out a stale instance.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../emulator/index.js";
import { sdkClient } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const readError = (read: () => unknown): string => {
  try {
    read();
    return "no error";
  } catch (e) {
    return (e as Error).message;
  }
};

let handle: RunningEmulator;
let url = "";

describe("in the suite that called it", () => {
  const logged: string[] = [];
  const emu = useTestEmulator({ log: (line) => logged.push(line) });
  handle = emu;
  const atCollection = readError(() => emu.url);
  let orgInHook = "";
  beforeAll(() => {
    orgInHook = emu.info.organizationId;
  });
  afterAll(() => {
    // Registered after useTestEmulator, so it runs before the instance is stopped.
    expect(emu.runtime.store.db.open).toBe(true);
  });

  it("is not running yet while the suite is collected", () => {
    expect(atCollection).toMatch(/^useTestEmulator: no emulator is running \(read \.url /);
  });

  it("runs for the suite's tests and for hooks registered after it, started with the options given", async () => {
    url = emu.url;
    expect(orgInHook).toBe(emu.info.organizationId);
    expect((await sdkClient(emu).getWhoami({})).organizationId).toBe(emu.info.organizationId);
    expect(logged.some((line) => line.includes("whoami"))).toBe(true);
  });
});

describe("after that suite", () => {
  it("the instance is stopped: the handle throws and the port refuses connections", async () => {
    expect(readError(() => handle.info)).toMatch(/no emulator is running \(read \.info /);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(`${url}/emulator/v1/info`)).rejects.toThrow();
  });
});
