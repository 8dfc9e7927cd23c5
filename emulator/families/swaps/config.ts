/**
 * Swap configuration: the parent organization's swap fee settings (who receives the client fee,
 * and its rates in basis points), which every swap of the organization and its
 * sub-organizations pays (activities.ts, docs/swaps.md). Fields left out of an
 * upsert keep their value, so an empty one reads the configuration back. As documented: a
 * sub-organization cannot set one, a rate is at most 500 bps, the receiver is an Ethereum wallet
 * account or private key of the organization, and a positive fee set with no receiver gets one: a
 * new wallet of the organization ("Swap fee receiver") with one Ethereum account.
 */
import { badRequestDetail, GrpcCode, invalidArgument, TurnkeyError, turnkeyErrorDetail } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import { lazyModule } from "../../core/lazy-module.js";
import type { Runtime } from "../../core/runtime.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";
import { createWallet } from "../wallets/index.js";

const viem = lazyModule<typeof import("viem")>("viem");

/** The documented cap of feeBps and stableFeeBps: 5%. */
export const MAX_SWAP_FEE_BPS = 500;

/** A fee rate: a whole number of basis points, 0 to MAX_SWAP_FEE_BPS. */
function basisPoints(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) > MAX_SWAP_FEE_BPS) throw invalidArgument(`${field.replace("parameters.", "")} must be a whole number of basis points between 0 and ${MAX_SWAP_FEE_BPS} (5%), got ${quote(value)}`, field);
  return String(Number(value));
}

/** The receiver: an Ethereum wallet account or private key of the organization, as stored (checksummed). */
function receiver(ctx: DomainContext, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const field = "parameters.feeReceiverWalletAddress";
  if (!viem.isAddress(value, { strict: false })) throw invalidArgument(`feeReceiverWalletAddress must be an Ethereum address (0x-prefixed, 20 bytes), got ${quote(value)}`, field);
  const address = viem.getAddress(value);
  const { wallets, privateKeys } = ctx.rt.store;
  const account = [value, address].map((a) => wallets.accountByAddress(ctx.org.id, a)).find((a) => a?.addressFormat === "ADDRESS_FORMAT_ETHEREUM");
  const key = [value, address].map((a) => privateKeys.byAddress(ctx.org.id, a)).find((k) => k?.curve === "CURVE_SECP256K1");
  if (!account && !key) throw invalidArgument(`feeReceiverWalletAddress ${address} is not an Ethereum wallet account or private key of organization ${ctx.org.id}: fees accrue only to addresses the organization holds`, field);
  return account?.address ?? address;
}

/** A wallet made to receive swap fees when a fee is set without a receiver. */
function newReceiver(ctx: DomainContext): string {
  const accounts = [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }] as const;
  const { addresses } = createWallet(ctx, ctx.org.id, { walletName: "Swap fee receiver", accounts: [...accounts] }, "parameters");
  return addresses[0]!;
}

/** The swap fees that apply to `org`'s swaps: its parent's configuration, or its own at the top (none: no client fee). */
export function swapFeeConfig(rt: Runtime, org: OrganizationRow): { receiver: string | null; feeBps: bigint; stableFeeBps: bigint | null } {
  const c = rt.store.swapConfigs.get(org.parentId ?? org.id);
  return { receiver: c?.feeReceiverWalletAddress ?? null, feeBps: BigInt(c?.feeBps ?? 0), stableFeeBps: c?.stableFeeBps != null ? BigInt(c.stableFeeBps) : null };
}

/** Refuses a parent-organization activity submitted to a sub-organization. */
export function requireParentOrganization(ctx: DomainContext, what: string): void {
  if (!ctx.org.parentId) return;
  const message = `${what} is a parent-organization activity: submit it to organization ${ctx.org.parentId}, whose swap configuration every sub-organization uses`;
  throw new TurnkeyError(GrpcCode.FAILED_PRECONDITION, message, [turnkeyErrorDetail("REQUEST_INVALID"), badRequestDetail("organizationId", message)]);
}

export type SwapConfigInput = { feeReceiverWalletAddress?: string; feeBps?: string; stableFeeBps?: string };

/** upsert_swap_config: merges the given fields into the organization's configuration; answers it as it now stands. */
export function upsertSwapConfig(ctx: DomainContext, p: SwapConfigInput): SwapConfigInput {
  requireParentOrganization(ctx, "upsert_swap_config");
  const feeBps = basisPoints(p.feeBps, "parameters.feeBps");
  const stableFeeBps = basisPoints(p.stableFeeBps, "parameters.stableFeeBps");
  const given = receiver(ctx, p.feeReceiverWalletAddress);
  const was = ctx.rt.store.swapConfigs.get(ctx.org.id);
  const fee = feeBps ?? was?.feeBps ?? null;
  // A fee of 0 needs no receiver; a positive one with none gets a new wallet to receive it.
  const feeReceiverWalletAddress = given ?? was?.feeReceiverWalletAddress ?? (fee !== null && fee !== "0" ? newReceiver(ctx) : null);
  const now = {
    orgId: ctx.org.id,
    feeReceiverWalletAddress,
    feeBps: fee,
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
}
