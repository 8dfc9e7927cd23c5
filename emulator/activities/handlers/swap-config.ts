/**
 * upsert_swap_config: the organization's swap fee settings (who receives fees, and the fee
 * rates in basis points). Fields left out keep their value, so an empty intent reads the
 * configuration back; the result is the configuration as it now stands. Swaps themselves need
 * a DEX aggregator and are not emulated (declared below), so the configuration is kept, not
 * applied.
 */
import { invalidArgument } from "../../errors.js";
import { defineActivity, defineNotEmulated } from "../../operations/define.js";
import { NEEDS_OPERATORS } from "../../operations/not-emulated.js";
import { quote } from "../../input-error.js";

/** A fee rate: a whole number of basis points, 0 to 10,000 (100%). */
function basisPoints(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 10_000) throw invalidArgument(`${field.replace("parameters.", "")} must be a whole number of basis points between 0 and 10000, got ${quote(value)}`, field);
  return String(Number(value));
}

function receiver(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const field = "parameters.feeReceiverWalletAddress";
  if (!value.trim() || value.length > 128 || /\s/.test(value)) throw invalidArgument("feeReceiverWalletAddress must be a wallet address (non-empty, no spaces, at most 128 characters)", field);
  return value;
}

export const swapConfigOperations = [
  defineActivity("upsert_swap_config", {
    run(ctx, p) {
      const feeReceiverWalletAddress = receiver(p.feeReceiverWalletAddress);
      const feeBps = basisPoints(p.feeBps, "parameters.feeBps");
      const stableFeeBps = basisPoints(p.stableFeeBps, "parameters.stableFeeBps");
      const was = ctx.rt.store.swapConfigs.get(ctx.org.id);
      const now = {
        orgId: ctx.org.id,
        feeReceiverWalletAddress: feeReceiverWalletAddress ?? was?.feeReceiverWalletAddress ?? null,
        feeBps: feeBps ?? was?.feeBps ?? null,
        stableFeeBps: stableFeeBps ?? was?.stableFeeBps ?? null,
        createdAt: was?.createdAt ?? ctx.now,
        updatedAt: ctx.now,
      };
      ctx.rt.store.swapConfigs.put(now);
      return {
        ...(now.feeReceiverWalletAddress !== null ? { feeReceiverWalletAddress: now.feeReceiverWalletAddress } : {}),
        ...(now.feeBps !== null ? { feeBps: now.feeBps } : {}),
        ...(now.stableFeeBps !== null ? { stableFeeBps: now.stableFeeBps } : {}),
      };
    },
  }),
  defineNotEmulated("execute_swap", NEEDS_OPERATORS),
  defineNotEmulated("create_swap_quote", NEEDS_OPERATORS),
  defineNotEmulated("claim_swap_fees", NEEDS_OPERATORS),
  defineNotEmulated(
    "get_swap_status",
    "it polls a swap, and swaps need a DEX aggregator's quotes and liquidity, which do not exist offline (create_swap_quote and execute_swap answer 501 too)",
  ),
];
