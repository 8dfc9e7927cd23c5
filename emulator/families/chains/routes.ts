/**
 * The chains over HTTP:
 *   POST /emulator/v1/chains/<caip2>/rpc       standard JSON-RPC (single or batch)
 *   POST /emulator/v1/chains/<caip2>/mine      {blocks?}
 *   POST /emulator/v1/chains/<caip2>/fund      {address, amount, asset?}  (amount: smallest unit, decimal string)
 *   POST /emulator/v1/chains/<caip2>/automine  {enabled}
 *   GET  /emulator/v1/chains                   the chains and their RPC URLs
 *   GET  /emulator/v1/chains/<caip2>/holdings/<address>   what the address holds: the native coin, then every
 *                                              token with a balance (the UI's balances; tokens found from Transfer logs)
 *   POST /emulator/v1/gas-station/limits       {organizationId, orgWindowLimitUsd, subOrgWindowLimitUsd, windowDurationMinutes, enabled?}
 *                                              (what the dashboard's gas usage configuration sets)
 * The RPC route answers JSON-RPC error objects; the control routes answer rpcStatus errors.
 */
import express, { Router, type Request, type Response } from "express";
import type { Runtime } from "../../core/runtime.js";
import { sendRpcError } from "../../core/http/errors.js";
import { GrpcCode, invalidArgument, isTurnkeyError, TurnkeyError, turnkeyErrorDetail } from "../../core/errors.js";
import { RpcCode, RpcError, rpcFailure, type JsonRpcRequest, type JsonRpcResponse } from "./rpc.js";
import { networksOf, type Networks } from "./networks.js";
import type { Chain } from "./chain.js";
import { parseUsd } from "./prices.js";
import { upsertGasUsageConfig } from "./gas-station/usage.js";
import { chainWatcher } from "./watch.js";
import { checkChainAddress } from "./chain-address.js";

const BASE = "/emulator/v1/chains";
const body = express.text({ type: () => true, limit: "10mb" });

export function networksRouter(rt: Runtime): Router {
  const router = Router();
  const networks = (): Networks => {
    const networks = networksOf(rt);
    if (!networks) throw new TurnkeyError(GrpcCode.UNAVAILABLE, "this instance has no chains");
    return networks;
  };
  // Anything that changes a chain: the watcher turns it into send-status and balance events.
  const changed = () => chainWatcher(rt)?.poke();

  router.get(BASE, (_req, res) => {
    try {
      res.json({ chains: networks().list() });
    } catch (err) {
      sendRpcError(res, err);
    }
  });

  router.post(`${BASE}/:caip2/rpc`, body, async (req, res) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof req.body === "string" ? req.body : "");
    } catch {
      res.json(rpcFailure(null, new RpcError(RpcCode.PARSE_ERROR, "Parse error: the body is not JSON")));
      return;
    }
    let chain: Chain;
    try {
      chain = await networks().get(String(req.params.caip2));
    } catch (err) {
      const message = isTurnkeyError(err) ? err.message : String(err);
      const id = !Array.isArray(parsed) && parsed && typeof parsed === "object" ? ((parsed as JsonRpcRequest).id ?? null) : null;
      res.status(isTurnkeyError(err) && err.code === GrpcCode.INVALID_ARGUMENT ? 404 : 500).json(rpcFailure(id, new RpcError(RpcCode.SERVER, message)));
      return;
    }
    if (Array.isArray(parsed)) {
      if (!parsed.length) {
        res.json(rpcFailure(null, new RpcError(RpcCode.INVALID_REQUEST, "Invalid Request: empty batch")));
        return;
      }
      const out: JsonRpcResponse[] = [];
      for (const r of parsed) out.push(await handleOne(chain, r));
      if (parsed.some(changesChain)) changed();
      res.json(out);
      return;
    }
    const one = await handleOne(chain, parsed);
    if (changesChain(parsed)) changed();
    res.json(one);
  });

  const control = (handler: (chain: Chain, input: Record<string, unknown>, caip2: string) => Promise<unknown>) => async (req: Request, res: Response) => {
    try {
      const input = parseBody(req.body);
      const caip2 = String(req.params.caip2);
      const chain = await networks().get(caip2, "caip2");
      res.json(await handler(chain, input, chain.caip2));
    } catch (err) {
      sendRpcError(res, err instanceof RpcError ? chainFailure(err) : err);
    }
  };

  router.get(`${BASE}/:caip2/holdings/:address`, async (req, res) => {
    try {
      const chain = await networks().get(String(req.params.caip2), "caip2");
      const address = checkChainAddress(chain.caip2, String(req.params.address), "address");
      const { holdings, displayAmount } = await import("./assets.js");
      const held = await holdings(chain, address);
      res.json({ caip2: chain.caip2, address, holdings: held.map((h) => ({ caip19: h.caip19, symbol: h.symbol, name: h.name, decimals: h.decimals, balance: h.balance.toString(), display: displayAmount(h.balance, h.decimals) })) });
    } catch (err) {
      sendRpcError(res, err instanceof RpcError ? chainFailure(err) : err);
    }
  });

  router.post(
    `${BASE}/:caip2/mine`,
    body,
    control(async (chain, input, caip2) => {
      const blocks = input.blocks ?? 1;
      if (typeof blocks !== "number" || !Number.isInteger(blocks) || blocks < 1 || blocks > 10_000) throw invalidArgument("blocks must be a whole number from 1 to 10000", "blocks");
      await chain.mine(blocks);
      changed();
      return { caip2, mined: blocks };
    }),
  );

  router.post(
    `${BASE}/:caip2/automine`,
    body,
    control(async (chain, input, caip2) => {
      if (typeof input.enabled !== "boolean") throw invalidArgument("enabled must be true or false", "enabled");
      await chain.setAutomine(input.enabled);
      return { caip2, automine: input.enabled };
    }),
  );

  router.post(
    `${BASE}/:caip2/fund`,
    body,
    control(async (chain, input, caip2) => {
      const address = checkAddress(chain, input.address, "address");
      const asset = input.asset === undefined || input.asset === null || input.asset === "" ? undefined : checkAddress(chain, input.asset, "asset");
      const amount = checkAmount(input.amount);
      await chain.fund(address, amount, asset);
      const balance = await chain.getBalance(address, asset);
      return { caip2, address, ...(asset ? { asset } : {}), balance: balance.toString() };
    }),
  );

  router.post(`/emulator/v1/gas-station/limits`, body, async (req, res) => {
    try {
      const input = parseBody(req.body);
      const orgId = input.organizationId;
      if (typeof orgId !== "string" || !rt.store.organizations.get(orgId)) throw invalidArgument("organizationId must name an organization of this instance", "organizationId");
      const usd = (field: string) => {
        const v = input[field];
        if (typeof v !== "string" || parseUsd(v) === undefined) throw invalidArgument(`${field} must be a decimal USD amount as a string, e.g. "25" or "0.5"`, field);
        return v;
      };
      const minutes = input.windowDurationMinutes;
      const windowDurationMinutes = typeof minutes === "string" && /^[0-9]+$/.test(minutes) ? Number(minutes) : minutes;
      if (typeof windowDurationMinutes !== "number" || !Number.isInteger(windowDurationMinutes) || windowDurationMinutes < 1 || windowDurationMinutes > 525_600) {
        throw invalidArgument("windowDurationMinutes must be a whole number of minutes from 1 to 525600", "windowDurationMinutes");
      }
      if (input.enabled !== undefined && typeof input.enabled !== "boolean") throw invalidArgument("enabled must be true or false", "enabled");
      const config = { orgWindowLimitUsd: usd("orgWindowLimitUsd"), subOrgWindowLimitUsd: usd("subOrgWindowLimitUsd"), windowDurationMinutes, enabled: input.enabled ?? true };
      const gasUsageConfigId = upsertGasUsageConfig(rt, orgId, config, rt.clock.now());
      res.json({ gasUsageConfigId, organizationId: orgId, ...config });
    } catch (err) {
      sendRpcError(res, err);
    }
  });

  return router;
}

/** JSON-RPC methods that send or mine (the others only read). */
function changesChain(r: unknown): boolean {
  const method = r && typeof r === "object" ? (r as JsonRpcRequest).method : undefined;
  return typeof method === "string" && /^(eth_sendRawTransaction|eth_sendTransaction|sendTransaction|requestAirdrop|evm_mine|anvil_mine|hardhat_mine)$/.test(method);
}

async function handleOne(chain: Chain, r: unknown): Promise<JsonRpcResponse> {
  if (!r || typeof r !== "object" || typeof (r as JsonRpcRequest).method !== "string") {
    const id = r && typeof r === "object" ? ((r as JsonRpcRequest).id ?? null) : null;
    return rpcFailure(id, new RpcError(RpcCode.INVALID_REQUEST, "Invalid Request: expected {jsonrpc, id, method, params}"));
  }
  try {
    return await chain.handleRpc(r as JsonRpcRequest);
  } catch (err) {
    return rpcFailure((r as JsonRpcRequest).id, err);
  }
}

function parseBody(raw: unknown): Record<string, unknown> {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!text) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw invalidArgument("the request body is not JSON");
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw invalidArgument("the request body must be a JSON object");
  return v as Record<string, unknown>;
}

function checkAddress(chain: Chain, v: unknown, field: string): string {
  if (typeof v !== "string") throw invalidArgument(`${field} is required`, field);
  return checkChainAddress(chain.caip2, v, field);
}

function checkAmount(v: unknown): bigint {
  const s = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== "string" || !/^[0-9]{1,78}$/.test(s) || BigInt(s) === 0n) throw invalidArgument("amount must be a positive whole number of the smallest unit (wei, lamports, token base units), as a decimal string", "amount");
  return BigInt(s);
}

/** A chain that refuses a control request: the request cannot be met in this state. */
function chainFailure(err: RpcError): TurnkeyError {
  return new TurnkeyError(GrpcCode.FAILED_PRECONDITION, err.message, [turnkeyErrorDetail("CHAIN_ERROR")]);
}
