/**
 * Paths that earlier versions of the published API document had and that SDK versions still
 * in use call, although the current document no longer lists them (e.g. @turnkey/http 6.2
 * calls `create_api_only_users`; the official examples' `createUser` does too). Their
 * request and result schemas are still in the document's definitions; only the routes are
 * written here, in the generated tables' shape.
 */
import { z } from "zod";
import { v1ActivityResponse, v1CreateApiOnlyUsersIntent, v1EthSendRawTransactionIntent, v1InitImportSecretsIntent } from "./generated/public-api.js";
import { intentKeyOf } from "./legacy.js";
import type { TypedOperation } from "./operation.js";
import { lazy } from "./zod-helpers.js";

const activityRequest = <T extends string, P extends z.ZodType>(type: T, parameters: P) =>
  z.object({ type: z.enum([type]), timestampMs: z.string(), organizationId: z.string(), parameters, generateAppProofs: z.boolean().optional() });

/**
 * A retired submit path in the generated table's shape: its intent and result members follow from
 * the activity type, and its request schema is built on first read, like the generated schemas.
 */
function retiredActivity<N extends string, T extends string, P extends z.ZodType>(
  name: N,
  activityType: T,
  intent: () => P,
  why: string,
): TypedOperation<"submit", N, ReturnType<typeof activityRequest<T, P>>, ReturnType<typeof v1ActivityResponse>> {
  const request = lazy(() => activityRequest(activityType, intent()));
  const intentKey = intentKeyOf(activityType);
  return {
    kind: "submit",
    name,
    get request() {
      return request();
    },
    get response() {
      return v1ActivityResponse();
    },
    activityType,
    intentKey,
    resultKey: intentKey.replace(/Intent$/, "Result"),
    requestName: `v1${intentKey[0]!.toUpperCase()}${intentKey.slice(1).replace(/Intent$/, "Request")} (${why})`,
    responseName: "v1ActivityResponse",
  };
}

export const retiredOperations = {
  "/public/v1/submit/create_api_only_users": retiredActivity("create_api_only_users", "ACTIVITY_TYPE_CREATE_API_ONLY_USERS", v1CreateApiOnlyUsersIntent, "retired path"),
  "/public/v1/submit/eth_send_raw_transaction": retiredActivity("eth_send_raw_transaction", "ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION", v1EthSendRawTransactionIntent, "retired path"),
  // Not in the current document, but @turnkey/http 6.6 calls it (the first half of a secret import) and
  // the documentation has its page; its intent and result are in the document's definitions.
  "/public/v1/submit/init_import_secrets": retiredActivity("init_import_secrets", "ACTIVITY_TYPE_INIT_IMPORT_SECRETS", v1InitImportSecretsIntent, "SDK path beyond the document"),
};

export type RetiredOperations = typeof retiredOperations;
