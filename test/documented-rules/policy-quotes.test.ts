/**
 * The policy language takes single-quoted strings only ("only single quotes are supported",
 * tkhq/docs features/policies/language.mdx:91); a double-quoted string is the documented
 * `invalid policy condition` / `invalid policy consensus` (api-reference/overview/errors.mdx:89-90,
 * InvalidArgument, 400), naming the field, and nothing is written.
 */
import { describe, expect, it } from "vitest";
import { rawPost, refusal, sdkClient, submitBody, violatedField } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";


describe("policy strings take single quotes only", () => {
  const e = useTestEmulator();

  it("create_policy with a double-quoted string in the condition: 400 invalid policy condition, nothing written", async () => {
    const c = sdkClient(e);
    const before = (await c.getPolicies({})).policies.length;
    const err = await refusal(c.createPolicy({ policyName: "double", effect: "EFFECT_ALLOW", condition: `activity.action == "CREATE"`, notes: "" }));
    expect(err.code).toBe(3);
    expect(err.message).toMatch(/^Turnkey error 3: invalid policy condition: double-quoted string: only single quotes are supported/);
    expect(violatedField(err)).toBe("parameters.condition");
    expect((await c.getPolicies({})).policies.length).toBe(before);

    const raw = await rawPost(e, "/public/v1/submit/create_policy", submitBody(e, "ACTIVITY_TYPE_CREATE_POLICY_V3", { policyName: "double", effect: "EFFECT_ALLOW", condition: `activity.action == "CREATE"`, notes: "" }));
    expect(raw.status).toBe(400);
    expect(raw.json).toMatchObject({ code: 3, message: expect.stringMatching(/^invalid policy condition/) });
  });

  it("create_policies with one in a consensus expression: invalid policy consensus, naming that policy's field", async () => {
    const c = sdkClient(e);
    const err = await refusal(
      c.createPolicies({
        policies: [
          { policyName: "fine", effect: "EFFECT_ALLOW", condition: "activity.action == 'CREATE'", notes: "" },
          { policyName: "quoted", effect: "EFFECT_ALLOW", consensus: `approvers.any(u, u.id == "x")`, notes: "" },
        ],
      }),
    );
    expect(err.code).toBe(3);
    expect(err.message).toMatch(/^Turnkey error 3: invalid policy consensus: double-quoted string/);
    expect(violatedField(err)).toBe("parameters.policies[1].consensus");
    expect((await c.getPolicies({})).policies.map((p) => p.policyName)).not.toContain("fine");
  });

  it("update_policy to a double-quoted condition is refused and keeps the policy as it was", async () => {
    const c = sdkClient(e);
    const { policyId } = await c.createPolicy({ policyName: "single", effect: "EFFECT_ALLOW", condition: "activity.action == 'CREATE'", notes: "" });
    const err = await refusal(c.updatePolicy({ policyId, policyCondition: `activity.action == "DELETE"` }));
    expect(err.code).toBe(3);
    expect(err.message).toMatch(/^Turnkey error 3: invalid policy condition: double-quoted string/);
    expect(violatedField(err)).toBe("parameters.policyCondition");
    expect((await c.getPolicy({ policyId })).policy.condition).toBe("activity.action == 'CREATE'");
  });
});
