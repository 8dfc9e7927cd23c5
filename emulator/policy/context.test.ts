import { describe, expect, it } from "vitest";
import { v1ActivityType } from "../../contracts/generated/public-api.js";
import { registry } from "../families.js";
import { activityKind, buildActivityContext as build } from "./context.js";

const { policyByType, policyOf } = registry;

/** The context as the engine builds it: with what the registry says of the type. */
const buildActivityContext = (type: string, intent?: Record<string, unknown>) => build(type, intent, policyOf(type));

describe("buildActivityContext", () => {
  it("maps type to kind, resource, action and exposed params", () => {
    expect(buildActivityContext("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: "0xabc", payload: "00", hashFunction: "HASH_FUNCTION_NO_OP", encoding: "PAYLOAD_ENCODING_HEXADECIMAL" })).toEqual({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      kind: "SIGN_RAW_PAYLOAD",
      resource: "PRIVATE_KEY",
      action: "SIGN",
      params: { hash_function: "HASH_FUNCTION_NO_OP", encoding: "PAYLOAD_ENCODING_HEXADECIMAL" },
    });
    expect(buildActivityContext("CREATE_SUB_ORGANIZATION_V8")).toMatchObject({ type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", kind: "CREATE_SUB_ORGANIZATION", resource: "ORGANIZATION", action: "CREATE", params: {} });
    expect(buildActivityContext("ACTIVITY_TYPE_STAMP_LOGIN", { publicKey: "02" }).params).toEqual({ session_profile_id: "" });
    expect(buildActivityContext("ACTIVITY_TYPE_DELETE_API_KEYS", { userId: "u", apiKeyIds: ["k"] }).params).toEqual({ user_id: "u", api_key_ids: ["k"] });
    expect(buildActivityContext("ACTIVITY_TYPE_VERIFY_OTP_V2")).toMatchObject({ resource: "OTP", action: "VERIFY" });
    expect(activityKind("ACTIVITY_TYPE_INIT_OTP_V3")).toBe("INIT_OTP");
    // An older version shows its own type and params: V1 has no otp_length, V2 has.
    expect(buildActivityContext("ACTIVITY_TYPE_INIT_OTP_AUTH", { otpType: "OTP_TYPE_EMAIL", contact: "a@example.com" })).toMatchObject({ type: "ACTIVITY_TYPE_INIT_OTP_AUTH", kind: "INIT_OTP_AUTH", resource: "AUTH", params: {} });
    expect(buildActivityContext("ACTIVITY_TYPE_INIT_OTP_AUTH_V2", { otpType: "OTP_TYPE_EMAIL", contact: "a@example.com", otpLength: 6 }).params).toEqual({ otp_length: 6 });
    expect(buildActivityContext("ACTIVITY_TYPE_SIGN_TRANSACTION", { privateKeyId: "k", type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: "00" }).params).toEqual({});
    expect(buildActivityContext("ACTIVITY_TYPE_APPROVE_ACTIVITY")).not.toHaveProperty("resource");
  });

  it("only names activity types that exist in the API's ActivityType enum", () => {
    const known = new Set(v1ActivityType().options.map((t) => t.replace(/^ACTIVITY_TYPE_/, "")));
    const unknown = [...policyByType.keys()].filter((t) => !known.has(t));
    expect(unknown).toEqual([]);
  });
});
