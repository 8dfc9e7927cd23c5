import { describe, expect, it } from "vitest";
import { manifestBytesBase64, writeManifest } from "./manifest.js";

const input = {
  namespace: { name: "my-app", nonce: 7, quorumKey: "04aa" },
  pivot: { hash: "11".repeat(32), args: ["--flag", "positional"], debugMode: false },
  manifestSet: { threshold: 2, members: [{ alias: "alice", pubKey: "04bb" }, { alias: "bob", pubKey: "04cc" }] },
  shareSet: { threshold: 1, members: [{ alias: "carol", pubKey: "04dd" }] },
  qosVersion: "v1.2.3",
};

describe("writeManifest", () => {
  it("writes QuorumOS's manifest sections from the deployment, with no measurement claimed", () => {
    const m = JSON.parse(writeManifest(input));
    expect(Object.keys(m)).toEqual(["namespace", "pivot", "manifestSet", "shareSet", "enclave", "patchSet"]);
    expect(m.namespace).toEqual(input.namespace);
    expect(m.pivot).toMatchObject({ hash: input.pivot.hash, args: input.pivot.args, debugMode: false });
    expect(m.manifestSet).toEqual(input.manifestSet);
    expect(m.shareSet).toEqual(input.shareSet);
    expect(m.enclave).toMatchObject({ pcr0: "0".repeat(96), pcr3: "0".repeat(96), awsRootCertificate: "", qosCommit: "v1.2.3" });
    expect(m.patchSet).toEqual({ threshold: 0, members: [] });
  });

  it("is deterministic, and its wire form is base64 of the UTF-8 JSON", () => {
    expect(writeManifest(input)).toBe(writeManifest(structuredClone(input)));
    expect(Buffer.from(manifestBytesBase64(writeManifest(input)), "base64").toString("utf8")).toBe(writeManifest(input));
  });
});
