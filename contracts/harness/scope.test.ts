/** Sub-organization scope against a scripted server that records what the runner sends. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpClient } from "./http.js";
import { newApiKeyPair } from "./keys.js";
import { openScope, type ScopeRuntime } from "./scope.js";

type Seen = { path: string; body: any; stampKey: string };
let seen: Seen[] = [];
let mode: "ok" | "unimplemented" | "delete-fails" = "ok";
let server: Server;
let url: string;
const SUB = "11111111-2222-4333-8444-555555555555";

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const stamp = JSON.parse(Buffer.from(String(req.headers["x-stamp"]), "base64url").toString());
      seen.push({ path: req.url!, body: JSON.parse(raw), stampKey: stamp.publicKey });
      const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (mode === "unimplemented") return send(501, { code: 12, message: "create_sub_organization is routed but not emulated yet", details: [] });
      if (req.url!.endsWith("/create_sub_organization")) {
        return send(200, { activity: { status: "ACTIVITY_STATUS_COMPLETED", result: { createSubOrganizationResultV8: { subOrganizationId: SUB, rootUserIds: ["root-of-sub"] } } } });
      }
      if (mode === "delete-fails") return send(403, { code: 7, message: "request not authorized", details: [] });
      return send(200, { activity: { status: "ACTIVITY_STATUS_COMPLETED", result: { deleteSubOrganizationResult: { subOrganizationUuid: SUB } } } });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const runtime = (): ScopeRuntime => ({
  http: new HttpClient({ requestsPerSecond: 0 }),
  url,
  rootOrg: { id: "parent-org", name: "Parent", rootUserId: "parent-root", rootUserName: "P" },
  rootKey: newApiKeyPair(),
  leftBehind: [],
});

describe("sub-organization scope", () => {
  it("creates the sub-org with the parent key and a run-generated root key, and deletes it with that key", async () => {
    seen = [];
    mode = "ok";
    const rt = runtime();
    const scope = await openScope(rt, "suborg", "demo");
    expect(scope.org).toMatchObject({ id: SUB, rootUserId: "root-of-sub" });
    const create = seen[0]!;
    expect(create.path).toBe("/public/v1/submit/create_sub_organization");
    expect(create.stampKey).toBe(rt.rootKey.publicKey);
    expect(create.body).toMatchObject({ type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", organizationId: "parent-org", parameters: { rootQuorumThreshold: 1 } });
    const runKey = create.body.parameters.rootUsers[0].apiKeys[0].publicKey;
    expect(runKey).toBe(scope.rootKey.publicKey);
    expect(runKey).not.toBe(rt.rootKey.publicKey);

    expect(await scope.close()).toEqual([]);
    const del = seen[1]!;
    expect(del.path).toBe("/public/v1/submit/delete_sub_organization");
    expect(del.stampKey).toBe(runKey);
    expect(del.body).toMatchObject({ type: "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION", organizationId: SUB, parameters: { deleteWithoutExport: true } });
    expect(scope.info).toEqual({ mode: "suborg", organizationId: SUB, cleanedUp: true });
  });

  it("falls back to the root organization once the target answers 501 / code 12, and says so", async () => {
    seen = [];
    mode = "unimplemented";
    const rt = runtime();
    const first = await openScope(rt, "suborg", "a");
    const second = await openScope(rt, "suborg", "b");
    expect(seen).toHaveLength(1); // asked once per run
    for (const s of [first, second]) {
      expect(s.org.id).toBe("parent-org");
      expect(s.rootKey).toBe(rt.rootKey);
      expect(s.info.fallback).toMatch(/create_sub_organization is not implemented by the target \(HTTP 501 code 12/);
    }
  });

  it("reports a sub-org it could not delete", async () => {
    seen = [];
    mode = "delete-fails";
    const rt = runtime();
    const scope = await openScope(rt, "suborg", "c");
    expect(await scope.close()).toEqual([{ kind: "cleanup", message: `could not delete sub-organization ${SUB}: HTTP 403 code 7: request not authorized` }]);
    expect(rt.leftBehind).toEqual([SUB]);
  });

  it("root scope sends nothing", async () => {
    seen = [];
    const scope = await openScope(runtime(), "root", "d");
    expect(scope.info).toEqual({ mode: "root", organizationId: "parent-org" });
    expect(seen).toEqual([]);
  });
});
