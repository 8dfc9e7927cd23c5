/**
 * JSON-RPC 2.0 plumbing shared by every chain: request/response shapes, an error that
 * carries a JSON-RPC error object, and the transport to an external node over HTTP.
 */

export type JsonRpcId = string | number | null;
export type JsonRpcRequest = { jsonrpc?: "2.0"; id?: JsonRpcId; method: string; params?: unknown };
export type JsonRpcErrorObject = { code: number; message: string; data?: unknown };
export type JsonRpcResponse = { jsonrpc: "2.0"; id: JsonRpcId } & ({ result: unknown } | { error: JsonRpcErrorObject });

/** Standard JSON-RPC error codes (and the ones nodes use for rejected transactions). */
export const RpcCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  /** Geth/Anvil: a rejected transaction or call (nonce too low, insufficient funds...). */
  SERVER: -32000,
  /** Geth/Anvil: `execution reverted`, with the revert data in `data`. */
  EXECUTION_REVERTED: 3,
} as const;

export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** Anything that answers JSON-RPC requests: an embedded engine or an external node. */
export interface RpcTransport {
  request(req: JsonRpcRequest): Promise<JsonRpcResponse>;
  close?(): Promise<void> | void;
}

export function rpcResult(id: JsonRpcId | undefined, result: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id: id ?? null, result };
}

export function rpcFailure(id: JsonRpcId | undefined, err: unknown): JsonRpcResponse {
  const e = err instanceof RpcError ? err.toJSON() : { code: RpcCode.INTERNAL, message: err instanceof Error ? err.message : String(err) };
  return { jsonrpc: "2.0", id: id ?? null, error: e };
}

let nextId = 1;

/** Calls one method and returns its result, or throws the node's error as an RpcError. */
export async function call<T = unknown>(transport: RpcTransport, method: string, params: unknown[] = []): Promise<T> {
  const res = await transport.request({ jsonrpc: "2.0", id: nextId++, method, params });
  if ("error" in res) throw new RpcError(res.error.code, res.error.message, res.error.data);
  return res.result as T;
}

/** A node elsewhere (a user's Anvil, a solana-test-validator, a fork), reached over HTTP. */
export function httpTransport(url: string): RpcTransport {
  return {
    async request(req) {
      let res: Response;
      try {
        res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", ...req }) });
      } catch (err) {
        return rpcFailure(req.id, new RpcError(RpcCode.INTERNAL, `external node ${url} unreachable: ${err instanceof Error ? err.message : err}`));
      }
      const text = await res.text();
      try {
        return JSON.parse(text) as JsonRpcResponse;
      } catch {
        return rpcFailure(req.id, new RpcError(RpcCode.INTERNAL, `external node ${url} answered HTTP ${res.status} with a body that is not JSON`));
      }
    },
  };
}
