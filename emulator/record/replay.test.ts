import { describe, expect, it } from "vitest";
import type { Cassette, Exchange } from "./cassette.js";
import { replayCassette } from "./replay.js";

const ORG = "1e2d3c4b-5a69-4788-9abc-def012345678";
const USER = "2f3e4d5c-6b7a-4899-8bcd-ef0123456789";
const KEY = "02" + "ab".repeat(32);

const exchange = (seq: number, operation: string, body: unknown, response: { status: number; body: unknown }, stamp = true): Exchange => ({
  seq,
  surface: "coordinator",
  path: `/public/v1/${operation.replace(" ", "/")}`,
  operation,
  recordedAt: Date.now() - 60_000 + seq,
  durationMs: 1,
  request: { headers: { "content-type": "application/json" }, ...(stamp ? { stamp: { header: "X-Stamp" as const, publicKey: KEY, scheme: "SIGNATURE_SCHEME_TK_API_P256" } } : {}), body },
  response: { ...response, headers: {} },
});

const cassette = (exchanges: Exchange[]): Cassette => ({ header: { cassette: 1, recordedAt: new Date().toISOString(), upstream: "https://api.example.test", recorder: "test" }, exchanges });

describe("replayCassette", () => {
  const whoami = exchange(1, "query whoami", { organizationId: ORG }, { status: 200, body: { organizationId: ORG, organizationName: "Recorded", userId: USER, username: "someone" } });

  it("leaves out what the emulator refuses to seed (a policy it cannot compile), says so, and replays the rest", async () => {
    const policies = exchange(2, "query list_policies", { organizationId: ORG }, { status: 200, body: { policies: [{ policyId: "3a4b5c6d-7e8f-4a0b-8c1d-2e3f4a5b6c7d", policyName: "newer syntax", effect: "EFFECT_ALLOW", condition: "activity.resource ==== 'WALLET'", consensus: "", notes: "", createdAt: { seconds: "1", nanos: "0" }, updatedAt: { seconds: "1", nanos: "0" } }] } });
    const report = await replayCassette(cassette([whoami, policies]));
    expect(report.notes.some((n) => n.startsWith("the replay's emulator refuses a recorded policy ("))).toBe(true);
    expect(report.summary).toEqual({ exchanges: 2, same: 2, differ: 0, notReplayed: 0 });
  });

  it("does not replay what it cannot stamp or fill in, and says why", async () => {
    const passkey = { ...exchange(2, "query whoami", { organizationId: ORG }, whoami.response), request: { headers: {}, stamp: { header: "X-Stamp-WebAuthn" as const, credentialId: "abc" }, body: { organizationId: ORG } } };
    const bundle = exchange(3, "submit import_wallet", { organizationId: ORG, type: "ACTIVITY_TYPE_IMPORT_WALLET", timestampMs: String(Date.now()), parameters: { userId: USER, walletName: "w", encryptedBundle: "<redacted encryptedBundle len=400 #1>", accounts: [] } }, { status: 200, body: {} });
    const report = await replayCassette(cassette([whoami, passkey, bundle]));
    expect(report.exchanges.map((e) => [e.outcome, e.reason])).toEqual([
      ["same", undefined],
      ["not replayed", "stamped with a passkey: the replay holds no passkey to stamp with"],
      ["not replayed", "sends a secret (encryptedBundle) that no earlier answer of the replay gave"],
    ]);
    expect(report.summary.differ).toBe(0);
  });
});
