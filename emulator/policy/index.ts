/** Policy language: parse, evaluate, combine policies, and build evaluation contexts. */
export type { Expr, CompareOp } from "./ast.js";
export { parseExpression, CONDITION_KEYWORDS, TIME_KEYWORDS, MAX_LENGTH, MAX_DEPTH, type ParseOptions } from "./parser.js";
export type { SourceLabel } from "./syntax-error.js";
export { evaluate, MAX_STEPS, type EvaluationContext } from "./evaluate.js";
export { EvaluationError, PolicyTimestamp } from "./values.js";
export {
  compilePolicy,
  evaluatePolicy,
  evaluatePolicies,
  timeWindowStatus,
  Outcome,
  type Effect,
  type PolicyInput,
  type CompiledPolicy,
  type PolicyEvaluation,
  type PolicyDecision,
  type EvaluateOptions,
} from "./policy.js";
export type { ActivityResource, ActivityAction, ActivityPolicy, ParamSpec } from "./activity-taxonomy.js";
export {
  buildActivityContext,
  activityKind,
  approverContext,
  credentialContext,
  walletContext,
  privateKeyContext,
  walletAccountContext,
  type ActivityContext,
  type UserLike,
  type CredentialLike,
} from "./context.js";
export { buildEthTxContext, buildEip712Context, type EthTxOptions, type TypedDataInput } from "./context-eth.js";
export { buildSolanaTxContext, SYSTEM_PROGRAM, TOKEN_PROGRAM, TOKEN_2022_PROGRAM, LOOKUP_PLACEHOLDER } from "./context-solana.js";
export { buildTronTxContext } from "./context-tron.js";
export { buildBitcoinTxContext, type BitcoinTxDescription } from "./context-bitcoin.js";
