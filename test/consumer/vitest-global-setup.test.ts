/**
 * `turnkey-emulator/vitest`, used as the README shows, from a consumer project: its vitest
 * config names the global setup by package name, its tests `inject("turnkey")` and call the API
 * with @turnkey/sdk-server. The project's vitest runs as a child process; its tests report what
 * they saw to a file, which this test checks against the emulator (gone once the run ended).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv, consumerProject, refused, requireBuilt, ROOT, run, type ConsumerProject } from "./consumer-project.js";

const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
/** The consumer's own test timeout, raised from vitest's 5 s: this suite runs it on a loaded machine, and speed is not what it checks. */
const PATIENT = "--testTimeout=30000";

/** A consumer test file: whoami through the SDK with the injected connection, and what it saw appended to $SEEN. */
const whoamiTest = (name: string) => `
import { appendFileSync } from "node:fs";
import { Turnkey } from "@turnkey/sdk-server";
import { expect, inject, it } from "vitest";

it("${name}: reaches the emulator the global setup started, its state its own", async () => {
  const turnkey = inject("turnkey");
  const api = new Turnkey({
    apiBaseUrl: turnkey.url,
    defaultOrganizationId: turnkey.organizationId,
    apiPublicKey: turnkey.apiPublicKey!,
    apiPrivateKey: turnkey.apiPrivateKey!,
  }).apiClient();
  const whoami = await api.getWhoami();
  expect(whoami.userId).toBe(turnkey.rootUserId);
  // Every file makes a tag of the same name: each sees only its own.
  const { userTagId } = await api.createUserTag({ userTagName: "per file", userIds: [] });
  const tags = (await api.listUserTags({})).userTags.map((t) => t.tagName);
  appendFileSync(process.env.SEEN!, JSON.stringify({ file: "${name}", turnkey, whoami, tags, userTagId }) + "\\n");
});
`;

let project: ConsumerProject;

beforeAll(() => {
  requireBuilt("dist/bundle/vitest.js", "dist/bundle/index.js", "dist/emulator/testing/vitest.d.ts");
  project = consumerProject(
    {
      // As the README's "Use it in your project" shows it.
      "vitest.config.ts": `// vitest.config.ts (the reference types inject("turnkey") in every file of the project)
/// <reference types="turnkey-emulator/vitest" />
import { defineConfig } from "vitest/config";

export default defineConfig({ test: { globalSetup: ["turnkey-emulator/vitest"] } });
`,
      // The factory, in a global setup file of the project's own.
      // A probe listed first, so that its teardown runs after the emulator's (vitest tears down in reverse order).
      "vitest.app.config.ts": `import { defineConfig } from "vitest/config";

export default defineConfig({ test: { globalSetup: ["./probe-teardown.ts", "./app-setup.ts"] } });
`,
      "probe-teardown.ts": `import { appendFileSync } from "node:fs";

export default function setup(project: { getProvidedContext(): { turnkey: { url: string } } }) {
  return async () => {
    const { url } = project.getProvidedContext().turnkey;
    const after = await fetch(url + "/emulator/v1/info").then((r) => "answers " + r.status, (e) => e.cause?.code);
    appendFileSync(process.env.SEEN!, JSON.stringify({ file: "teardown", after }) + "\\n");
  };
}
`,
      "app-setup.ts": `import { turnkeyEmulatorSetup } from "turnkey-emulator/vitest";

export default turnkeyEmulatorSetup({ fixtures: "embedded-wallet-app" });
`,
      "test/a.test.ts": whoamiTest("a"),
      "test/b.test.ts": whoamiTest("b"),
      // Compiled only (tsc below): inject("turnkey") is typed through the reference in vitest.config.ts.
      "typed.ts": `import { inject } from "vitest";
const turnkey = inject("turnkey");
export const id: string = turnkey.organizationId;
export const caip2: string | undefined = turnkey.info.chains[0]?.caip2;
// @ts-expect-error not a field of the connection
export const nope = turnkey.nope;
`,
      "tsconfig.json": JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ["vitest.config.ts", "typed.ts"] }),
    },
    ["vitest", "@turnkey/sdk-server"],
  );
});

afterAll(() => project?.remove());

type Seen = { file: string; turnkey: Record<string, any>; whoami: { organizationId: string; userId: string }; tags?: string[]; userTagId?: string; after?: string };
const seen = (file: string): Seen[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Seen);

describe("turnkey-emulator/vitest in a consumer project", () => {
  it("gives every file an instance reset to the fixture, injects its connection, and stops them at the end", async () => {
    const SEEN = join(project.dir, "seen-default.jsonl");
    const r = await run(process.execPath, [VITEST, "run", PATIENT], { cwd: project.dir, env: childEnv({ SEEN }) });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Tests\s+2 passed/);
    expect(r.stderr).not.toMatch(/close timed out|something prevents/); // nothing left running

    const files = seen(SEEN);
    expect(files.map((f) => f.file).sort()).toEqual(["a", "b"]);
    const [a, b] = files;
    expect(a!.tags).toEqual(["per file"]); // whichever worker ran them, and in whatever order
    expect(b!.tags).toEqual(["per file"]);
    expect(a!.turnkey.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(a!.turnkey).toMatchObject({
      proxyUrl: a!.turnkey.url,
      organizationId: "0d59bf5a-3228-47d7-8128-1e1c1da98a34", // the default fixture
      apiPublicKey: "03a072d6592918a8c56a057682964c025d5779ea8e0af8c38d8e1eb0da71d7f5f1",
    });
    expect(a!.whoami.organizationId).toBe(a!.turnkey.organizationId);
    expect(a!.turnkey.info.baseUrl).toBe(a!.turnkey.url);
    // The teardown stopped them.
    expect(await refused(`${a!.turnkey.url}/emulator/v1/info`)).toBe(true);
    expect(await refused(`${b!.turnkey.url}/emulator/v1/info`)).toBe(true);
  }, 90_000);

  it("takes startEmulator options through turnkeyEmulatorSetup() in the project's own global setup file", async () => {
    const SEEN = join(project.dir, "seen-app.jsonl");
    const r = await run(process.execPath, [VITEST, "run", PATIENT, "--config", "vitest.app.config.ts"], { cwd: project.dir, env: childEnv({ SEEN }) });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const files = seen(SEEN);
    const a = files.find((f) => f.file === "a")!;
    expect(a.turnkey).toMatchObject({ organizationId: "1bbb774e-1792-46ab-afd6-ce26c7ddabfe", authProxyConfigId: "f1d3b901-7f22-44ab-88bf-83935a131896" });
    expect(a.whoami.organizationId).toBe("1bbb774e-1792-46ab-afd6-ce26c7ddabfe");
    // The emulator was stopped by its teardown, before the process ended.
    expect(files.at(-1)).toEqual({ file: "teardown", after: "ECONNREFUSED" });
  }, 90_000);

  it("takes the fixture from TURNKEY_EMULATOR_FIXTURES", async () => {
    const SEEN = join(project.dir, "seen-env.jsonl");
    const r = await run(process.execPath, [VITEST, "run", PATIENT, "test/a.test.ts"], { cwd: project.dir, env: childEnv({ SEEN, TURNKEY_EMULATOR_FIXTURES: "treasury" }) });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const [a] = seen(SEEN);
    expect(a!.turnkey.organizationId).not.toBe("0d59bf5a-3228-47d7-8128-1e1c1da98a34");
    expect(a!.whoami.organizationId).toBe(a!.turnkey.organizationId);
  }, 90_000);

  it("with TURNKEY_EMULATOR_SEED, seeds each file from its own path: the same ids run after run, another file's differ", async () => {
    const idsOfRun = async (n: number) => {
      const SEEN = join(project.dir, `seen-seed-${n}.jsonl`);
      const r = await run(process.execPath, [VITEST, "run", PATIENT], { cwd: project.dir, env: childEnv({ SEEN, TURNKEY_EMULATOR_SEED: "suite" }) });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return Object.fromEntries(seen(SEEN).map((f) => [f.file, f.userTagId]));
    };
    const first = await idsOfRun(1);
    expect(await idsOfRun(2)).toEqual(first);
    expect(first.a).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.a).not.toBe(first.b); // each file its own seed, not its worker's (one worker may run both)
  }, 90_000);

  it("types inject('turnkey') for a project that references the module's types", async () => {
    const r = await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: project.dir });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 90_000);
});
