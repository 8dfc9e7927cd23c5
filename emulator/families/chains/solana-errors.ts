/**
 * LiteSVM's transaction errors in the shape Solana's JSON-RPC reports them
 * (`"BlockhashNotFound"`, `{InstructionError: [0, {Custom: 1}]}`), plus a readable message.
 */

// Solana's enum order (solana-sdk TransactionError / InstructionError), as LiteSVM numbers them.
const TX_ERRORS =
  "AccountInUse AccountLoadedTwice AccountNotFound ProgramAccountNotFound InsufficientFundsForFee InvalidAccountForFee AlreadyProcessed BlockhashNotFound CallChainTooDeep MissingSignatureForFee InvalidAccountIndex SignatureFailure InvalidProgramForExecution SanitizeFailure ClusterMaintenance AccountBorrowOutstanding WouldExceedMaxBlockCostLimit UnsupportedVersion InvalidWritableAccount WouldExceedMaxAccountCostLimit WouldExceedAccountDataBlockLimit TooManyAccountLocks AddressLookupTableNotFound InvalidAddressLookupTableOwner InvalidAddressLookupTableData InvalidAddressLookupTableIndex InvalidRentPayingAccount WouldExceedMaxVoteCostLimit WouldExceedAccountDataTotalLimit MaxLoadedAccountsDataSizeExceeded ResanitizationNeeded InvalidLoadedAccountsDataSizeLimit UnbalancedTransaction ProgramCacheHitMaxLimit CommitCancelled".split(
    " ",
  );
const IX_ERRORS =
  "GenericError InvalidArgument InvalidInstructionData InvalidAccountData AccountDataTooSmall InsufficientFunds IncorrectProgramId MissingRequiredSignature AccountAlreadyInitialized UninitializedAccount UnbalancedInstruction ModifiedProgramId ExternalAccountLamportSpend ExternalAccountDataModified ReadonlyLamportChange ReadonlyDataModified DuplicateAccountIndex ExecutableModified RentEpochModified NotEnoughAccountKeys AccountDataSizeChanged AccountNotExecutable AccountBorrowFailed AccountBorrowOutstanding DuplicateAccountOutOfSync InvalidError ExecutableDataModified ExecutableLamportChange ExecutableAccountNotRentExempt UnsupportedProgramId CallDepth MissingAccount ReentrancyNotAllowed MaxSeedLengthExceeded InvalidSeeds InvalidRealloc ComputationalBudgetExceeded PrivilegeEscalation ProgramEnvironmentSetupFailure ProgramFailedToComplete ProgramFailedToCompile Immutable IncorrectAuthority AccountNotRentExempt InvalidAccountOwner ArithmeticOverflow UnsupportedSysvar IllegalOwner MaxAccountsDataAllocationsExceeded MaxAccountsExceeded MaxInstructionTraceLengthExceeded BuiltinProgramsMustConsumeComputeUnits BorshIoError".split(
    " ",
  );

const TX_MESSAGES: Record<string, string> = {
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  InsufficientFundsForFee: "Insufficient funds for fee",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  SignatureFailure: "Transaction did not pass signature verification",
};

type LiteSvmTxError = number | { index: number; err?: () => unknown; accountIndex?: number } | { accountIndex: number };

/** The JSON-RPC form of a LiteSVM transaction error. */
export function solanaErrorJson(e: LiteSvmTxError): unknown {
  if (typeof e === "number") return TX_ERRORS[e] ?? `TransactionError${e}`;
  const name = (e as object).constructor?.name ?? "";
  if (name === "TransactionErrorInstructionError" && "err" in e && typeof e.err === "function") {
    const inner = e.err() as number | { code?: number; msg?: string };
    const ix = typeof inner === "number" ? IX_ERRORS[inner] ?? `InstructionError${inner}` : inner && typeof inner.code === "number" ? { Custom: inner.code } : { BorshIoError: inner?.msg ?? "" };
    return { InstructionError: [e.index, ix] };
  }
  if (name === "TransactionErrorDuplicateInstruction" && "index" in e) return { DuplicateInstruction: e.index };
  if (name === "TransactionErrorInsufficientFundsForRent" && "accountIndex" in e) return { InsufficientFundsForRent: { account_index: e.accountIndex } };
  if (name === "TransactionErrorProgramExecutionTemporarilyRestricted" && "accountIndex" in e) return { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } };
  return String(e);
}

/** A sentence for a JSON-RPC error form, close to what a validator prints. */
export function solanaErrorMessage(err: unknown): string {
  if (typeof err === "string") return TX_MESSAGES[err] ?? err;
  if (err && typeof err === "object" && "InstructionError" in err) {
    const [index, ix] = (err as { InstructionError: [number, unknown] }).InstructionError;
    const what = typeof ix === "string" ? ix : ix && typeof ix === "object" && "Custom" in ix ? `custom program error: 0x${(ix as { Custom: number }).Custom.toString(16)}` : JSON.stringify(ix);
    return `Error processing Instruction ${index}: ${what}`;
  }
  return JSON.stringify(err);
}
