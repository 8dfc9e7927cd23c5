/**
 * `turnkey-emulator/jest/global-setup` and `/global-teardown`, used as the README shows, from a
 * consumer project. Jest is not a dependency of this repository, so a script plays jest's part
 * the way jest does it: it requires the two modules by the names the jest config gives
 * (package exports, CommonJS), calls the setup once per project in its own process, forks the
 * test worker (which inherits the environment the setup wrote; the worker calls the API with
 * @turnkey/sdk-server from `turnkeyEnv()`), then calls the teardowns.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv, consumerProject, refused, requireBuilt, run, type ConsumerProject } from "./consumer-project.js";

let project: ConsumerProject;

beforeAll(() => {
  requireBuilt("dist/bundle/jest.cjs", "dist/bundle/jest-global-setup.cjs", "dist/bundle/jest-global-teardown.cjs", "dist/bundle/index.js");
  project = consumerProject(
    {
      // What jest does with `globalSetup` / `globalTeardown` (jest-util's requireOrImportModule: require, then the default export if __esModule).
      "run-like-jest.cjs": `
const { fork } = require("node:child_process");
const load = (name) => { const m = require(name); return m && m.__esModule ? m.default : m; };
const globalSetup = load(require.resolve("turnkey-emulator/jest/global-setup"));
const globalTeardown = load(require.resolve("turnkey-emulator/jest/global-teardown"));
const worker = () => new Promise((resolve, reject) => {
  const child = fork(__dirname + "/worker.cjs", { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error("worker exited " + code))));
});
(async () => {
  if (typeof globalSetup !== "function" || typeof globalTeardown !== "function") throw new Error("not functions");
  await globalSetup({}, { id: "project-a" });
  await globalSetup({}, { id: "project-b" }); // a second jest project: the same emulator
  const turnkeyVariables = Object.keys(process.env).filter((k) => k.startsWith("TURNKEY_")).sort();
  const seen = await worker();
  await globalTeardown({}, {});
  const afterFirstTeardown = await fetch(seen.url + "/emulator/v1/info").then((r) => r.status, (e) => e.cause?.code);
  await globalTeardown({}, {});
  const left = Object.keys(process.env).filter((k) => k.startsWith("TURNKEY_"));
  console.log(JSON.stringify({ turnkeyVariables, seen, afterFirstTeardown, left }));
})().catch((e) => { console.error(e); process.exit(1); });
`,
      // A test file's part: read the connection from the environment and call the API.
      "worker.cjs": `
const { turnkeyEnv } = require("turnkey-emulator/jest");
const { Turnkey } = require("@turnkey/sdk-server");
(async () => {
  const turnkey = turnkeyEnv();
  const api = new Turnkey({
    apiBaseUrl: turnkey.url,
    defaultOrganizationId: turnkey.organizationId,
    apiPublicKey: turnkey.apiPublicKey,
    apiPrivateKey: turnkey.apiPrivateKey,
  }).apiClient();
  const whoami = await api.getWhoami();
  const info = await (await fetch(turnkey.url + "/emulator/v1/info")).json();
  process.stdout.write(JSON.stringify({ ...turnkey, whoami, info }));
})().catch((e) => { console.error(e); process.exit(1); });
`,
    },
    ["@turnkey/sdk-server"],
  );
});

afterAll(() => project?.remove());

describe("turnkey-emulator/jest in a consumer project", () => {
  it("starts one emulator for all projects, publishes it in TURNKEY_* variables a worker inherits, and the last teardown stops it", async () => {
    const r = await run(process.execPath, ["run-like-jest.cjs"], { cwd: project.dir });
    expect(r.code, r.stderr).toBe(0);
    const { turnkeyVariables, seen, afterFirstTeardown, left } = JSON.parse(r.stdout);
    expect(turnkeyVariables).toEqual([
      "TURNKEY_API_BASE_URL",
      "TURNKEY_API_PRIVATE_KEY",
      "TURNKEY_API_PUBLIC_KEY",
      "TURNKEY_BASE_URL",
      "TURNKEY_EMULATOR_ORG_ID",
      "TURNKEY_ORGANIZATION_ID",
      "TURNKEY_USER_ID",
      "TURNKEY_AUTH_PROXY_URL",
      "TURNKEY_AUTH_PROXY_CONFIG_ID",
      "TURNKEY_EMULATOR_LEASE_URL", // where turnkeyEnv() leases its file's instance
    ].sort());
    // What the worker read is what the emulator says about itself, and the SDK got through with it.
    expect(seen.url).toBe(seen.info.baseUrl);
    expect(seen).toMatchObject({
      proxyUrl: seen.info.authProxyUrl,
      authProxyConfigId: seen.info.authProxyConfigId,
      organizationId: seen.info.organizationId,
      rootUserId: seen.info.rootUserId,
      apiPublicKey: seen.info.apiPublicKey,
      apiPrivateKey: seen.info.apiPrivateKey,
    });
    expect(seen.whoami).toMatchObject({ organizationId: seen.info.organizationId, userId: seen.info.rootUserId });
    // The first of two projects' teardowns leaves it running; the last stops it and unsets the variables.
    expect(afterFirstTeardown).toBe(200);
    expect(left).toEqual([]);
    expect(await refused(`${seen.url}/emulator/v1/info`)).toBe(true);
  }, 60_000);

  it("takes the fixture from TURNKEY_EMULATOR_FIXTURES, and names the missing setup in a test that runs without it", async () => {
    const r = await run(process.execPath, ["run-like-jest.cjs"], { cwd: project.dir, env: childEnv({ TURNKEY_EMULATOR_FIXTURES: "embedded-wallet-app" }) });
    expect(r.code, r.stderr).toBe(0);
    const { seen } = JSON.parse(r.stdout);
    expect(seen.organizationId).toBe("1bbb774e-1792-46ab-afd6-ce26c7ddabfe");
    expect(seen.authProxyConfigId).toBe("f1d3b901-7f22-44ab-88bf-83935a131896");

    const alone = await run(process.execPath, [join(project.dir, "worker.cjs")], { cwd: project.dir });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain("TURNKEY_API_BASE_URL is not set: is the emulator's jest global setup (turnkey-emulator/jest/global-setup) in the jest config?");
  }, 60_000);
});
