import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../index.js";
import { EmulatorPool } from "./pool.js";
import { leaseFromBroker, leaseFromBrokerSync, startLeaseBroker } from "./lease.js";

const ROOT = "/project";
const dir = mkdtempSync(join(tmpdir(), "emu-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const api = (emu: { url: string; info: RunningEmulator["info"] }) =>
  new Turnkey({ apiBaseUrl: emu.url, defaultOrganizationId: emu.info.organizationId, apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey! }).apiClient();
const tags = async (emu: RunningEmulator) => (await api(emu).listUserTags({})).userTags.map((t) => t.tagName);

describe("the test pool", () => {
  it("gives each worker its instance, kept through one file and reset to the fixture for the next", async () => {
    const pool = new EmulatorPool({}, ROOT);
    try {
      const a = await pool.lease("1", `${ROOT}/a.test.ts`);
      const other = await pool.lease("2", `${ROOT}/b.test.ts`);
      expect(other.url).not.toBe(a.url);
      await api(a).createUserTag({ userTagName: "made by a", userIds: [] });
      expect(await pool.lease("1", `${ROOT}/a.test.ts`)).toBe(a); // the same file again: nothing reset
      expect(await tags(a)).toEqual(["made by a"]);
      expect(await tags(other)).toEqual([]);
      const next = await pool.lease("1", `${ROOT}/c.test.ts`);
      expect(next).toBe(a);
      expect(await tags(next)).toEqual([]);
      expect(pool.leaseStarted("1", `${ROOT}/d.test.ts`)).toBe(a);
      expect(pool.leaseStarted("3", `${ROOT}/d.test.ts`)).toBeUndefined(); // not started: only lease() starts one
    } finally {
      await pool.stop();
    }
  }, 60_000);

  it("with a seed, a file's ids are the same whichever worker runs it, and another file's differ", async () => {
    const pool = new EmulatorPool({ seed: "suite" }, ROOT);
    try {
      const walletOf = async (slot: string, file: string) => (await api(await pool.lease(slot, `${ROOT}/${file}`)).createWallet({ walletName: "w", accounts: [] })).walletId;
      const first = await walletOf("1", "wallets.test.ts");
      expect(await walletOf("2", "wallets.test.ts")).toBe(first);
      expect(await walletOf("1", "other.test.ts")).not.toBe(first);
      expect(await walletOf("1", "wallets.test.ts")).toBe(first);
    } finally {
      await pool.stop();
    }
  }, 60_000);

  it("writes one coverage report of every instance when it stops", async () => {
    const out = join(dir, "coverage", "turnkey.json");
    const pool = new EmulatorPool({ coverageOut: out }, ROOT);
    const a = await pool.lease("1", `${ROOT}/a.test.ts`);
    const b = await pool.lease("2", `${ROOT}/b.test.ts`);
    await api(a).getWhoami({});
    await api(b).getWhoami({});
    await api(b).createUserTag({ userTagName: "t", userIds: [] });
    await pool.stop();
    const report = JSON.parse(readFileSync(out, "utf8")) as { instances: number; operations: { name: string; calls: number }[] };
    expect(report.instances).toBe(2);
    expect(Object.fromEntries(report.operations.map((o) => [o.name, o.calls]))).toEqual({ create_user_tag: 1, whoami: 2 });
    expect(readFileSync(join(dir, "coverage", "turnkey.txt"), "utf8")).toMatch(/^Turnkey emulator coverage: 2 of \d+ published operations called/);
  }, 60_000);
});

describe("leases over HTTP", () => {
  // The synchronous lease (jest's turnkeyEnv()) needs this process's event loop free while it waits, so its round trip
  // is tested where the broker lives in another process: test/consumer/jest-global-setup.test.ts, test/package/isolation.test.ts.
  it("answer a worker's file its instance's connection, and refuse a lease without a slot", async () => {
    const pool = new EmulatorPool({}, ROOT);
    const broker = await startLeaseBroker(pool);
    try {
      const waited = await leaseFromBroker(broker.url, { slot: "1", file: `${ROOT}/a.test.ts` });
      const emu = await pool.instance("1");
      expect(waited).toMatchObject({ url: emu.url, organizationId: emu.info.organizationId, apiPrivateKey: emu.info.apiPrivateKey, info: { baseUrl: emu.url } });
      await api(emu).createUserTag({ userTagName: "kept", userIds: [] });
      expect((await leaseFromBroker(broker.url, { slot: "1", file: `${ROOT}/a.test.ts` })).url).toBe(emu.url);
      expect(await tags(emu)).toEqual(["kept"]); // the same file: not reset
      await expect(leaseFromBroker(broker.url, { slot: "" })).rejects.toThrow(/refused a lease \(HTTP 500\): a lease names its worker's slot/);
    } finally {
      await broker.close();
      await pool.stop();
    }
  }, 60_000);

  it("from a worker that cannot wait: a child process makes the request (names the pool when nothing answers)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(() => leaseFromBrokerSync(`http://127.0.0.1:${port}/lease`, { slot: "1" })).toThrow(/^the emulator's test pool could not lease an instance: ECONNREFUSED/);
  });
});
