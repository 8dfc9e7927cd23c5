/**
 * The published status record of a send (get_send_transaction_status, send-status events):
 * BROADCASTING until a block holds the transaction, then INCLUDED or FAILED with the chain's
 * reason (EVM revert chain: Error(string) / Panic as native, the gas-station delegate's custom
 * errors decoded, anything else raw; Solana: the transaction error and logs).
 */
import type { Runtime } from "../../core/runtime.js";
import type { TxStatus } from "./chain.js";
import type { SendTransactionRow } from "./repository.js";
import { requireNetworks } from "./networks.js";

/** Custom errors of the gas-station delegate, decoded for the revert chain. */
async function customRevert(data: string): Promise<{ errorName: string; paramsJson: string } | undefined> {
  try {
    const [{ decodeErrorResult }, { GAS_DELEGATE_ABI }] = await Promise.all([import("viem"), import("./gas-station/artifact.js")]);
    const r = decodeErrorResult({ abi: GAS_DELEGATE_ABI, data: data as `0x${string}` });
    const def = GAS_DELEGATE_ABI.find((e) => e.type === "error" && e.name === r.errorName) as { inputs?: readonly { name: string }[] } | undefined;
    const names = (def?.inputs ?? []).map((i) => i.name);
    const params = Object.fromEntries((r.args ?? []).map((a, i) => [names[i] ?? String(i), typeof a === "bigint" ? a.toString() : a]));
    return { errorName: r.errorName, paramsJson: JSON.stringify(params) };
  } catch {
    return undefined;
  }
}

/** How a status record names its transaction. */
function txRef(namespace: "eip155" | "solana", hash: string): Record<string, unknown> {
  return namespace === "eip155" ? { eth: { txHash: hash } } : { solana: { signature: hash } };
}

/** The published status record: BROADCASTING until a block holds it, then INCLUDED or FAILED. */
export async function renderStatus(namespace: "eip155" | "solana", s: TxStatus): Promise<Record<string, unknown>> {
  const ref = txRef(namespace, s.hash);
  if (s.status === "included") return { txStatus: "INCLUDED", ...ref };
  if (s.status === "failed") {
    const e = s.error;
    let error: Record<string, unknown>;
    if (namespace === "eip155") {
      const custom = !e.revertReason && e.revertData ? await customRevert(e.revertData) : undefined;
      const entry = e.revertReason
        ? { errorType: "native", displayMessage: e.message, native: { nativeType: e.revertReason.startsWith("panic") ? "panic" : "error_string", message: e.revertReason } }
        : custom
          ? { errorType: "custom", displayMessage: `${custom.errorName}(${custom.paramsJson})`, custom }
          : { errorType: "unknown", displayMessage: e.message, unknown: { ...(e.revertData ? { selector: e.revertData.slice(0, 10), data: e.revertData } : {}) } };
      error = { message: custom ? `execution reverted: ${custom.errorName}` : e.message, eth: { revertChain: [entry] } };
    } else {
      error = { message: e.message, solana: { source: "transaction", ...(e.solanaError !== undefined ? { transactionErrorJson: JSON.stringify(e.solanaError) } : {}), ...(e.logs ? { logs: e.logs } : {}) } };
    }
    return { txStatus: "FAILED", ...ref, txError: String(error.message), error };
  }
  return { txStatus: "BROADCASTING", ...ref };
}

/** The status of one recorded send: a refusal recorded at broadcast, else what the chain says now. */
export async function statusOfRow(ctx: { rt: Runtime }, row: SendTransactionRow): Promise<{ record: Record<string, unknown>; status: TxStatus | undefined }> {
  if (row.error) {
    return { record: { txStatus: "FAILED", ...txRef(row.namespace, row.txHash), txError: String(row.error.message ?? ""), error: row.error }, status: undefined };
  }
  const chain = await requireNetworks(ctx.rt, "sendTransactionStatusId").get(row.caip2);
  const status = await chain.getTransactionStatus(row.txHash);
  return { record: await renderStatus(row.namespace, status), status };
}

