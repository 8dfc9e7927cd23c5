/**
 * Swaps (create_swap_quote, execute_swap, get_swap_status): the quotes the emulated provider
 * priced, and each execution of one. A quote is executed at most once (`swaps.quote_id` is
 * unique); a swap's fate is read from its chain each time, unless it failed before broadcast
 * (`error`).
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper, updateRow } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    swapQuotes: SwapQuotes;
    swaps: Swaps;
  }
}

/** Amounts are base units and basis points as decimal strings, the way the API carries them. */
export type SwapQuoteRow = {
  id: string;
  orgId: string;
  activityId: string;
  /** The wallet account (or private key) address that signs and funds the swap. */
  signWith: string;
  caip2: string;
  /** CAIP-19, normalized (lowercase ERC-20 address). */
  inputToken: string;
  outputToken: string;
  inputAmount: string;
  outputAmount: string;
  minOutputAmount: string;
  slippageBps: string;
  clientFeeBps: string;
  /** The client fee and Turnkey's fee, in base units of the output token. */
  clientFee: string;
  turnkeyFee: string;
  /** Whose fee vault the client fee goes to (the configuration's receiver when quoted). */
  feeReceiver: string | null;
  provider: string;
  expiresAt: number;
  createdAt: number;
};

export type SwapRow = {
  /** The swapRequestId. */
  id: string;
  orgId: string;
  quoteId: string;
  activityId: string;
  caip2: string;
  fromAddress: string;
  sponsored: boolean;
  /** The send-transaction status row of its transaction, once broadcast. */
  sendTransactionId: string | null;
  txHash: string | null;
  /** A failure before broadcast (the pre-flight check): the swap is FAILED with this. */
  error: { message: string } | null;
  createdAt: number;
};

const quoteRows = rowMapper<SwapQuoteRow>();
const swapRows = rowMapper<SwapRow>({ json: ["error"], bool: ["sponsored"] });

export class SwapQuotes {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): SwapQuoteRow | undefined {
    return quoteRows.read(prep(this.db, "SELECT * FROM swap_quotes WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  insert(r: SwapQuoteRow): void {
    insertRow(this.db, "swap_quotes", quoteRows, r);
  }
}

export class Swaps {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): SwapRow | undefined {
    return swapRows.read(prep(this.db, "SELECT * FROM swaps WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  /** The execution of a quote, if it has one. */
  ofQuote(quoteId: string): SwapRow | undefined {
    return swapRows.read(prep(this.db, "SELECT * FROM swaps WHERE quote_id = ?").get(quoteId));
  }

  insert(r: SwapRow): void {
    insertRow(this.db, "swaps", swapRows, r);
  }

  /** Its transaction once broadcast, or the failure that kept it from the chain. */
  update(id: string, patch: Partial<Pick<SwapRow, "sendTransactionId" | "txHash" | "error">>): void {
    updateRow(this.db, "swaps", swapRows, id, patch);
  }
  /** Gives its quote back (the execution failed before anything reached the chain). */
  remove(id: string): void {
    prep(this.db, "DELETE FROM swaps WHERE id = ?").run(id);
  }
}
