/**
 * Snapshots and state export/import, end to end through @turnkey/sdk-server: a restored
 * snapshot forgets later changes; an exported state imported into a new instance (over
 * PUT /emulator/v1/state, or at start with `state`) answers the same list_* queries, and a
 * wallet created before the export signs there (checked with viem).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keccak256, recoverAddress, type Hex } from "viem";
import type { RunningEmulator } from "../../emulator/index.js";
import { sdkClient, startTestEmulator } from "../support.js";
import { control } from "./support.js";

let emu: RunningEmulator;
let dir: string;
const stopLater: RunningEmulator[] = [];

beforeAll(async () => {
  emu = await startTestEmulator();
  dir = mkdtempSync(join(tmpdir(), "emu-state-"));
});
afterAll(async () => {
  await Promise.all([emu, ...stopLater].map((e) => e.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function listings(e: RunningEmulator) {
  const c = sdkClient(e);
  const organizationId = e.info.organizationId;
  return {
    wallets: (await c.getWallets({ organizationId })).wallets,
    users: (await c.getUsers({ organizationId })).users,
    activities: (await c.getActivities({ organizationId })).activities,
  };
}

describe("snapshots", () => {
  it("restores: changes made after the snapshot are gone; list, delete and unknown ids", async () => {
    const c = sdkClient(emu);
    const kept = await c.createWallet({ walletName: "kept", accounts: [] });
    const taken = await control(emu, "POST", "/snapshots", { name: "before changes" });
    expect(taken.status).toBe(200);
    expect(taken.json).toMatchObject({ name: "before changes" });
    expect(typeof taken.json.id).toBe("string");
    const before = await listings(emu);

    const dropped = await c.createWallet({ walletName: "dropped", accounts: [] });
    await c.createUsers({ users: [{ userName: "dropped user", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] } as never);
    expect((await listings(emu)).wallets.map((w) => w.walletId)).toContain(dropped.walletId);

    const restored = await control(emu, "POST", `/snapshots/${taken.json.id}/restore`);
    expect(restored.status).toBe(200);
    const after = await listings(emu);
    expect(after).toEqual(before);
    expect(after.wallets.map((w) => w.walletId)).toContain(kept.walletId);
    expect(after.wallets.map((w) => w.walletId)).not.toContain(dropped.walletId);
    expect(after.users.map((u) => u.userName)).not.toContain("dropped user");
    // The store works on after a restore (writes land in the restored state).
    await c.createWallet({ walletName: "after restore", accounts: [] });

    const list = await control(emu, "GET", "/snapshots");
    expect(list.json.snapshots.map((s: { id: string }) => s.id)).toContain(taken.json.id);
    expect((await control(emu, "DELETE", `/snapshots/${taken.json.id}`)).status).toBe(200);
    for (const [method, path] of [["POST", `/snapshots/${taken.json.id}/restore`], ["DELETE", `/snapshots/${taken.json.id}`]] as const) {
      const missing = await control(emu, method, path);
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ code: 5, message: expect.stringContaining(taken.json.id) });
    }
    const badName = await control(emu, "POST", "/snapshots", { name: 42 });
    expect(badName.status).toBe(400);
    expect(JSON.stringify(badName.json.details)).toContain('"field":"name"');
  });
});

describe("state export and import", () => {
  let image: Buffer;
  let address: string;
  let before: Awaited<ReturnType<typeof listings>>;

  beforeAll(async () => {
    const c = sdkClient(emu);
    const w = await c.createWallet({
      walletName: "exported",
      accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }],
    });
    address = w.addresses[0]!;
    before = await listings(emu);
    const res = await fetch(`${emu.url}/emulator/v1/state`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/octet-stream/);
    image = Buffer.from(await res.arrayBuffer());
    expect(image.subarray(0, 15).toString("latin1")).toBe("SQLite format 3");
  });

  async function signsWithImportedWallet(e: RunningEmulator) {
    const payload = ("0x" + Buffer.from("after import").toString("hex")) as Hex;
    const r = await sdkClient(e).signRawPayload({ signWith: address, payload, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
    const recovered = await recoverAddress({ hash: keccak256(payload), signature: { r: `0x${r.r}`, s: `0x${r.s}`, yParity: Number(r.v) } });
    expect(recovered.toLowerCase()).toBe(address.toLowerCase());
  }

  it("PUT /emulator/v1/state on a new instance gives the same list_* answers, and the wallet signs", async () => {
    const other = await startTestEmulator();
    stopLater.push(other);
    const put = await fetch(`${other.url}/emulator/v1/state`, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: new Uint8Array(image) });
    expect(put.status).toBe(200);
    expect(await listings(other)).toEqual(before);
    await signsWithImportedWallet(other);
  });

  it("loads a state file at start (--state), and writes one on stop (--export-on-exit)", async () => {
    const file = join(dir, "state.sqlite");
    writeFileSync(file, image);
    const exitFile = join(dir, "on-exit.sqlite");
    const started = await startTestEmulator({ state: file, exportOnExit: exitFile });
    expect(await listings(started)).toEqual(before);
    await signsWithImportedWallet(started);
    await sdkClient(started).createWallet({ walletName: "made before exit", accounts: [] });
    const expected = await listings(started);
    await started.stop();

    const again = await startTestEmulator({ state: exitFile });
    stopLater.push(again);
    expect(await listings(again)).toEqual(expected);
  });

  it("refuses a body that is not a state with a 400 naming the body, changing nothing", async () => {
    const res = await fetch(`${emu.url}/emulator/v1/state`, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: "definitely not sqlite" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: number; details: unknown[] };
    expect(body.code).toBe(3);
    expect(JSON.stringify(body.details)).toContain('"field":"body"');
    expect(await listings(emu)).toEqual(before);
  });
});
