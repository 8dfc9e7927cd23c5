import { describe, expect, it } from "vitest";
import { keepVotes, readVotes } from "./kept-votes.js";
import type { StoredVote } from "./activities.js";

const owner = {
  intent: { signRawPayloadIntentV2: { signWith: "0xabc", payload: "0x01", note: "org-1 ACTIVITY_TYPE_X" } },
  orgId: "org-1",
  type: "ACTIVITY_TYPE_X",
  userId: "user-1",
  createdAt: 1000,
};

function vote(message: string, over: Partial<StoredVote> = {}): StoredVote {
  return { id: "v", userId: "user-1", selection: "VOTE_SELECTION_APPROVED", message, publicKey: "02aa", signature: "3044", scheme: "S", credentialId: "c", credentialType: "T", createdAt: 1000, ...over };
}

const params = JSON.stringify(owner.intent.signRawPayloadIntentV2);

describe("kept votes", () => {
  const messages = [
    // The SDK's form, the service's documented order, and bodies that name the intent's values twice or not at all.
    `{"parameters":${params},"organizationId":"org-1","timestampMs":"1","type":"ACTIVITY_TYPE_X"}`,
    `{"type":"ACTIVITY_TYPE_X","timestampMs":"1","organizationId":"org-1","parameters":${params}}`,
    `{"type":"ACTIVITY_TYPE_X","parameters":${params},"again":${params},"organizationId":"org-1org-1"}`,
    `{ "parameters" : { "signWith" : "0xabc" }, "organizationId": "org-1" }`,
    `{"parameters":{"fingerprint":"sha256:00"},"organizationId":"org-1","type":"ACTIVITY_TYPE_APPROVE_ACTIVITY"}`,
    "",
  ];

  it.each(messages)("reads back the exact message %#", (message) => {
    const votes = [vote(message), vote(message, { id: "w", userId: "user-2", selection: "VOTE_SELECTION_REJECTED", createdAt: 2000 })];
    const kept = JSON.parse(JSON.stringify(keepVotes(votes, owner)));
    const back = readVotes(kept, JSON.parse(JSON.stringify(owner)));
    expect(back).toEqual(votes);
    expect(back.map((v) => v.message)).toEqual([message, message]);
  });

  it("keeps a body with the intent as parts much shorter than the body, and one without it whole", () => {
    const body = messages[0]!;
    const [k] = keepVotes([vote(body)], owner);
    expect(k).not.toHaveProperty("message");
    expect(k).not.toHaveProperty("userId");
    expect(k).not.toHaveProperty("createdAt");
    expect(JSON.stringify(k).length).toBeLessThan(JSON.stringify(vote(body)).length - params.length);
    expect(keepVotes([vote(messages[4]!)], owner)[0]!.message).toBe(messages[4]);
  });

  it("reads votes kept whole, as rows written before this encoding hold them", () => {
    const whole = vote("anything", { userId: "user-9", createdAt: 5 });
    expect(readVotes([whole], owner)).toEqual([whole]);
  });
});
