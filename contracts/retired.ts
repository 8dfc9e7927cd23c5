/**
 * Paths that earlier versions of the published API document had and that SDK versions still
 * in use call, although the current document no longer lists them (e.g. @turnkey/http 6.2
 * calls `create_api_only_users`; the official examples' `createUser` does too). Their
 * request and result schemas are still in the document's definitions; only the routes are
 * written here, in the generated tables' shape.
 */
import { z } from "zod";
import { v1ActivityResponse, v1CreateApiOnlyUsersIntent, v1EthSendRawTransactionIntent, v1InitImportSecretsIntent } from "./generated/public-api.js";
import type { TypedOperation } from "./operation.js";
import { lazy } from "./zod-helpers.js";

const activityRequest = <T extends string, P extends z.ZodType>(type: T, parameters: P) =>
  z.object({ type: z.enum([type]), timestampMs: z.string(), organizationId: z.string(), parameters, generateAppProofs: z.boolean().optional() });

// Built on first use, like the generated schemas.
const createApiOnlyUsersRequest = lazy(() => activityRequest("ACTIVITY_TYPE_CREATE_API_ONLY_USERS", v1CreateApiOnlyUsersIntent()));
const ethSendRawTransactionRequest = lazy(() => activityRequest("ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION", v1EthSendRawTransactionIntent()));
// Not in the current document, but @turnkey/http 6.6 calls it (the first half of a secret import) and
// the documentation has its page; its intent and result are in the document's definitions.
const initImportSecretsRequest = lazy(() => activityRequest("ACTIVITY_TYPE_INIT_IMPORT_SECRETS", v1InitImportSecretsIntent()));

export type RetiredOperations = {
  "/public/v1/submit/create_api_only_users": TypedOperation<"submit", "create_api_only_users", ReturnType<typeof createApiOnlyUsersRequest>, ReturnType<typeof v1ActivityResponse>>;
  "/public/v1/submit/eth_send_raw_transaction": TypedOperation<"submit", "eth_send_raw_transaction", ReturnType<typeof ethSendRawTransactionRequest>, ReturnType<typeof v1ActivityResponse>>;
  "/public/v1/submit/init_import_secrets": TypedOperation<"submit", "init_import_secrets", ReturnType<typeof initImportSecretsRequest>, ReturnType<typeof v1ActivityResponse>>;
};

export const retiredOperations: RetiredOperations = {
  "/public/v1/submit/create_api_only_users": {
    kind: "submit",
    name: "create_api_only_users",
    get request() {
      return createApiOnlyUsersRequest();
    },
    get response() {
      return v1ActivityResponse();
    },
    activityType: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
    intentKey: "createApiOnlyUsersIntent",
    resultKey: "createApiOnlyUsersResult",
    requestName: "v1CreateApiOnlyUsersRequest (retired path)",
    responseName: "v1ActivityResponse",
  },
  "/public/v1/submit/eth_send_raw_transaction": {
    kind: "submit",
    name: "eth_send_raw_transaction",
    get request() {
      return ethSendRawTransactionRequest();
    },
    get response() {
      return v1ActivityResponse();
    },
    activityType: "ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION",
    intentKey: "ethSendRawTransactionIntent",
    resultKey: "ethSendRawTransactionResult",
    requestName: "v1EthSendRawTransactionRequest (retired path)",
    responseName: "v1ActivityResponse",
  },
  "/public/v1/submit/init_import_secrets": {
    kind: "submit",
    name: "init_import_secrets",
    get request() {
      return initImportSecretsRequest();
    },
    get response() {
      return v1ActivityResponse();
    },
    activityType: "ACTIVITY_TYPE_INIT_IMPORT_SECRETS",
    intentKey: "initImportSecretsIntent",
    resultKey: "initImportSecretsResult",
    requestName: "v1InitImportSecretsRequest (SDK path beyond the document)",
    responseName: "v1ActivityResponse",
  },
};
