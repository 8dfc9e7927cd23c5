import { describe, expect, it } from "vitest";
import { organizationServed, OWN_ORGANIZATION_ONLY } from "./access.js";
import type { Caller } from "./caller.js";
import type { OrganizationRow } from "../store/organizations.js";
import { TurnkeyError } from "../errors.js";

const org = (id: string, parentId: string | null = null) => ({ id, parentId }) as OrganizationRow;
const parent = org("parent");
const sub = org("sub", "parent");
const sibling = org("sibling", "parent");
const stranger = org("stranger");
const callerIn = (o: OrganizationRow) => ({ org: o }) as Caller;

const submit = { kind: "submit", reach: OWN_ORGANIZATION_ONLY } as const;
const query = { kind: "query", reach: OWN_ORGANIZATION_ONLY } as const;

function refusal(f: () => unknown): { code: number; message: string; turnkeyErrorCode: unknown } {
  try {
    f();
  } catch (e) {
    if (!(e instanceof TurnkeyError)) throw e;
    const json = e.toJSON() as { code: number; message: string; details: { turnkeyErrorCode?: string }[] };
    return { code: json.code, message: json.message, turnkeyErrorCode: json.details.find((d) => d.turnkeyErrorCode)?.turnkeyErrorCode };
  }
  throw new Error("not refused");
}

describe("organizationServed", () => {
  it("serves the caller's own organization, and a parent's reads and auth flows in its sub-organization", () => {
    expect(organizationServed(callerIn(sub), sub, submit)).toBe(sub);
    expect(organizationServed(callerIn(parent), sub, query)).toBe(sub);
    expect(organizationServed(callerIn(parent), sub, { kind: "submit", reach: { parentMayInitiate: true, servedInCallerOrg: false } })).toBe(sub);
  });

  it("serves discovery and login addressed to the parent in the caller's own sub-organization", () => {
    expect(organizationServed(callerIn(sub), parent, { kind: "query", reach: { parentMayInitiate: false, servedInCallerOrg: true } })).toBe(sub);
  });

  it("answers an activity whose voters are in another organization with organization mismatch (400)", () => {
    for (const [caller, target] of [[parent, sub], [sub, parent], [sibling, sub], [stranger, parent]] as const) {
      expect(refusal(() => organizationServed(callerIn(caller), target, submit))).toEqual({
        code: 3,
        message: `organization mismatch: request is targeting organization ("${target.id}"), but voters are in organization ("${caller.id}")`,
        turnkeyErrorCode: "ORGANIZATION_MISMATCH",
      });
    }
  });

  it("refuses a sub-organization's or a stranger's read with request not authorized (403)", () => {
    expect(refusal(() => organizationServed(callerIn(sub), parent, query))).toMatchObject({ code: 7, turnkeyErrorCode: "REQUEST_NOT_AUTHORIZED", message: "request not authorized: a sub-organization's credential cannot read or act in its parent organization" });
    expect(refusal(() => organizationServed(callerIn(stranger), sub, query))).toMatchObject({ code: 7, message: "request not authorized: organization stranger cannot read organization sub" });
  });
});
