import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { sdkClient, startCliEmulator, startTestEmulator } from "./support.js";

describe("storage and instances", () => {
  it("a restart on the same --db file keeps every acknowledged write", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-db-"));
    const db = join(dir, "state.db");
    try {
      const first = await startTestEmulator({ db });
      const { userIds } = await sdkClient(first).createUsers({ users: [{ userName: "persisted", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
      await first.stop();

      const second = await startTestEmulator({ db });
      const { user } = await sdkClient(second).getUser({ userId: userIds[0]! });
      expect(user.userName).toBe("persisted");
      // Activities survive too, and the store was not re-seeded over the old state.
      const acts = await sdkClient(second).getActivities({});
      expect(acts.activities.some((a) => a.type === "ACTIVITY_TYPE_CREATE_USERS_V4")).toBe(true);
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("instances in one process do not interfere, and reset restores the fixtures", async () => {
    const [a, b] = await Promise.all([startTestEmulator(), startTestEmulator()]);
    try {
      expect(a.url).not.toBe(b.url);
      await sdkClient(a).createUserTag({ userTagName: "only-in-a", userIds: [] });
      expect((await sdkClient(a).listUserTags({})).userTags).toHaveLength(1);
      expect((await sdkClient(b).listUserTags({})).userTags).toHaveLength(0);

      const res = await fetch(`${a.url}/emulator/v1/reset`, { method: "POST" });
      expect(res.status).toBe(200);
      expect((await sdkClient(a).listUserTags({})).userTags).toHaveLength(0);
      expect((await sdkClient(a).getWhoami({})).userId).toBe(a.info.rootUserId);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

describe("CLI", () => {
  it("`emulator start --port 0` prints the URLs, the organization and the dev key, then serves", async () => {
    const { child, out, url } = await startCliEmulator(["--port", "0"], 20_000);
    try {
      expect(out).toMatch(/Auth proxy\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(out).toContain("0d59bf5a-3228-47d7-8128-1e1c1da98a34");
      expect(out).toContain("03a072d6592918a8c56a057682964c025d5779ea8e0af8c38d8e1eb0da71d7f5f1");
      const info = await (await fetch(`${url}/emulator/v1/info`)).json();
      expect(info.organizationId).toBe("0d59bf5a-3228-47d7-8128-1e1c1da98a34");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("rejects a bad --port", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "emulator/cli.ts", "start", "--port", "99999"], { cwd: join(import.meta.dirname, ".."), stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).toBe(2);
    expect(err).toContain("--port");
  });
});
