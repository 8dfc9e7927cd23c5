/** The wire contract: generated zod schemas and the operation tables of both surfaces. */
import { operations as coordinatorOperations, schemas as coordinatorSchemas } from "./generated/public-api.js";
import { operations as proxyOperations, schemas as proxySchemas } from "./generated/auth-proxy.js";
import type { OperationContract } from "./operation.js";
import { retiredOperations } from "./retired.js";

export type { OperationContract };
/** The coordinator's routes: the published document's, plus retired paths SDKs still call (contracts/retired.ts). */
export const coordinator: Record<string, OperationContract> = { ...coordinatorOperations, ...retiredOperations };
export const proxy: Record<string, OperationContract> = proxyOperations;
export { coordinatorSchemas, proxySchemas };
export { parseRequest, checkResponse, type ContractProblem } from "./validate.js";
