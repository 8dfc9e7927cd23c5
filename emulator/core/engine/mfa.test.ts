/** The step rule of MFA policies, on the docs' own examples (features/authentication/mfa/overview). */
import { describe, expect, it } from "vitest";
import { isSatisfied } from "./mfa.js";

const PASSKEY = "AUTHENTICATION_TYPE_PASSKEY";
const API_KEY = "AUTHENTICATION_TYPE_API_KEY";
const EMAIL = "AUTHENTICATION_TYPE_EMAIL_OTP";
const SESSION = "AUTHENTICATION_TYPE_SESSION";

describe("isSatisfied", () => {
  const apiKeyThenPasskeyOrEmail = [{ any: [{ type: API_KEY }] }, { any: [{ type: PASSKEY }, { type: EMAIL }] }];

  it("needs every step, any one method per step, in no particular order", () => {
    expect(isSatisfied(apiKeyThenPasskeyOrEmail, [{ type: API_KEY, id: "k" }])).toBe(false);
    expect(isSatisfied(apiKeyThenPasskeyOrEmail, [{ type: EMAIL }, { type: API_KEY, id: "k" }])).toBe(true);
    expect(isSatisfied(apiKeyThenPasskeyOrEmail, [{ type: PASSKEY, id: "p" }, { type: API_KEY, id: "k" }])).toBe(true);
    expect(isSatisfied(apiKeyThenPasskeyOrEmail, [{ type: PASSKEY, id: "p" }, { type: EMAIL }])).toBe(false);
  });

  it("lets one method meet overlapping steps (the docs' warning)", () => {
    const overlapping = [{ any: [{ type: PASSKEY }, { type: EMAIL }] }, { any: [{ type: PASSKEY }, { type: EMAIL }] }];
    expect(isSatisfied(overlapping, [{ type: PASSKEY, id: "p" }])).toBe(true);
  });

  it("holds a pinned id to that credential or session profile", () => {
    const pinned = [{ any: [{ type: SESSION, id: "11111111-1111-1111-1111-111111111111" }] }];
    expect(isSatisfied(pinned, [{ type: SESSION, id: "00000000-0000-0000-0000-000000000000" }])).toBe(false);
    expect(isSatisfied(pinned, [{ type: SESSION, id: "11111111-1111-1111-1111-111111111111" }])).toBe(true);
    // Sessions are not transitive: a session never proves the passkey that made it.
    expect(isSatisfied([{ any: [{ type: PASSKEY }] }], [{ type: SESSION, id: "00000000-0000-0000-0000-000000000000" }])).toBe(false);
  });
});
