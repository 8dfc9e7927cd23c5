import { describe, expect, it } from "vitest";
import { expandShorthand, getPath, parsePath, PathSyntaxError } from "./json-path.js";

const doc = { users: [{ userId: "a", name: "x", tags: ["t1"] }, { userId: "b", name: "y", tags: [] }], activity: { result: { createUsersResult: { userIds: ["u1"] } } } };

describe("json paths", () => {
  it("reads keys, indices, filters and [*]", () => {
    expect(getPath(doc, "users[1].name")).toBe("y");
    expect(getPath(doc, "users[userId=b].name")).toBe("y");
    expect(getPath(doc, "users[*].userId")).toEqual(["a", "b"]);
    expect(getPath(doc, "users[0].tags[0]")).toBe("t1");
  });
  it("filters on a nested key", () => {
    const keys = { apiKeys: [{ apiKeyId: "k1", credential: { publicKey: "02aa" } }, { apiKeyId: "k2", credential: { publicKey: "03bb" } }] };
    expect(getPath(keys, "apiKeys[credential.publicKey=03bb].apiKeyId")).toBe("k2");
    expect(getPath(keys, "apiKeys[credential.publicKey=04cc].apiKeyId")).toBeUndefined();
  });
  it("answers undefined for anything missing", () => {
    expect(getPath(doc, "users[5].name")).toBeUndefined();
    expect(getPath(doc, "users[userId=zz].name")).toBeUndefined();
    expect(getPath(doc, "users.name")).toBeUndefined();
    expect(getPath(doc, "activity[0]")).toBeUndefined();
  });
  it("expands $result and $intent with the operation's member names", () => {
    const p = expandShorthand("$result.userIds[0]", { resultKey: "createUsersResult", intentKey: "createUsersIntentV4" });
    expect(p).toBe("activity.result.createUsersResult.userIds[0]");
    expect(getPath(doc, p)).toBe("u1");
    expect(expandShorthand("$intent", { intentKey: "i" })).toBe("activity.intent.i");
    expect(expandShorthand("$resultx.a", {})).toBe("$resultx.a");
    expect(() => expandShorthand("$result.x", {})).toThrow(/needs a submit step/);
  });
  it("rejects malformed paths", () => {
    for (const bad of ["a..b", ".a", "a.", "a[", "a[x]", ""]) expect(() => parsePath(bad), bad).toThrow(PathSyntaxError);
  });
});
