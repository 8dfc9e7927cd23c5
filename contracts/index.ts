/** The wire contract: generated zod schemas and the operation tables of both surfaces. */
import { operations as coordinatorOperations, schemas as coordinatorSchemas } from "./generated/public-api.js";
import { operations as proxyOperations, schemas as proxySchemas } from "./generated/auth-proxy.js";
import type { OperationContract } from "./operation.js";

export type { OperationContract };
/** The coordinator's routes: the published document's, plus those the installed @turnkey/http calls beyond it (contracts/model.json). */
export const coordinator: Record<string, OperationContract> = coordinatorOperations;
export const proxy: Record<string, OperationContract> = proxyOperations;
export { coordinatorSchemas, proxySchemas };
export { parseRequest, checkResponse, type ContractProblem } from "./validate.js";
