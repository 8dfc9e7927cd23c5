/**
 * IP allowlist enforcement at admission (core/http/coordinator.ts), after the caller is known and
 * before anything is read or written. The documented rules:
 *  - only requests that authenticate against a top-level organization are evaluated (a
 *    sub-organization's credentials never are, whichever organization they address);
 *  - nothing is enforced unless the organization-level list exists and is enabled;
 *  - an API key's own list, when it has at least one rule, replaces the organization's for
 *    requests stamped with that key; an empty key-level list falls back to the organization's;
 *  - a source address that cannot be determined follows the list's onEvaluationError (DENY
 *    by default).
 * The auth proxy submits its activities without passing here (the service exempts it), and the
 * emulator's control API (/emulator/v1) is never subject to it, like the service's dashboard.
 *
 * The source address is the TCP peer (loopback clients are 127.0.0.1 or ::1). X-Forwarded-For
 * is read only when the instance trusts a proxy in front of it (`trustProxy`, `--trust-proxy`):
 * then its leftmost entry is the client.
 *
 * The refusal: PermissionDenied (HTTP 403) with turnkeyErrorCode REQUEST_NOT_AUTHORIZED and a
 * message beginning with the documented "request not authorized". The service documents no
 * error for this case, so its exact code and text are UNCONFIRMED.
 */
import type { IncomingMessage } from "node:http";
import { notFound, permissionDenied, type TurnkeyError } from "../../core/errors.js";
import type { Runtime } from "../../core/runtime.js";
import { ORGANIZATION_LEVEL, type IpAllowlistRow } from "./repository.js";
import type { Store } from "../../core/store/index.js";
import type { Caller } from "../../core/auth/caller.js";
import { addressAllowed, canonicalAddress } from "./cidr.js";

/** What startEmulator takes for IP allowlists. */
export type IpAllowlistOptions = {
  /** Take the client address from X-Forwarded-For (its leftmost entry) for IP allowlists: only behind a proxy you run (`--trust-proxy`). */
  trustProxy?: boolean;
};

/** The instance's settings (`rt.families.ipAllowlist`, set by the family's start). */
export type IpAllowlistSettings = { trustProxy: boolean };

/** The scope a `publicKey` parameter names: "" for the organization, else the API key's public key as stored. */
export function allowlistScope(store: Store, orgId: string, publicKey: string | undefined, field: string): string {
  if (publicKey === undefined || publicKey === "") return ORGANIZATION_LEVEL;
  const key = store.apiKeys.byPublicKey(orgId, publicKey)[0] ?? store.apiKeys.byPublicKey(orgId, publicKey.toLowerCase())[0];
  if (!key) throw notFound(`no API key with public key ${publicKey} in organization ${orgId} (${field})`);
  return key.publicKey;
}

/** The request's source address, or why it cannot be told. */
export type SourceAddress = { address: string } | { unresolved: string };

/** One entry of X-Forwarded-For: an address, optionally with a port (`1.2.3.4:5678`, `[::1]:5678`). */
function forwardedEntry(entry: string): string | undefined {
  const e = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(e);
  if (bracketed) return canonicalAddress(bracketed[1]!)?.address;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(e);
  return canonicalAddress(v4WithPort ? v4WithPort[1]! : e)?.address;
}

export function sourceAddress(req: Pick<IncomingMessage, "headers" | "socket">, trustProxy: boolean): SourceAddress {
  if (trustProxy) {
    const header = req.headers["x-forwarded-for"];
    const value = Array.isArray(header) ? header.join(",") : header;
    if (value !== undefined && value.trim() !== "") {
      const first = value.split(",")[0]!;
      const address = forwardedEntry(first);
      return address ? { address } : { unresolved: `X-Forwarded-For starts with ${JSON.stringify(first.trim())}, which is not an IP address` };
    }
  }
  const peer = req.socket.remoteAddress;
  const address = peer === undefined ? undefined : canonicalAddress(peer)?.address;
  return address ? { address } : { unresolved: "the connection has no peer address" };
}

/** The list that decides a request of `caller`, if any (see the rules above). */
export function governingAllowlist(rt: Runtime, caller: Caller): IpAllowlistRow | undefined {
  if (caller.org.parentId) return undefined;
  const orgList = rt.store.ipAllowlists.get(caller.org.id);
  if (!orgList?.enabled) return undefined;
  if (caller.credential.kind === "api_key") {
    const keyList = rt.store.ipAllowlists.get(caller.org.id, caller.credential.publicKey);
    if (keyList && keyList.rules.length > 0) return keyList;
  }
  return orgList;
}

/** The refusal for a request the governing list does not admit, or undefined when it may proceed. */
export function ipAllowlistRefusal(list: IpAllowlistRow, source: SourceAddress): TurnkeyError | undefined {
  const scope = list.publicKey ? `of API key ${list.publicKey} in organization ${list.orgId}` : `of organization ${list.orgId}`;
  if ("unresolved" in source) {
    if (list.onEvaluationError === "ALLOW") return undefined;
    return permissionDenied(`request not authorized: the source IP address could not be determined (${source.unresolved}) and the IP allowlist ${scope} denies on evaluation errors`);
  }
  if (addressAllowed(list.rules.map((r) => r.cidr), source.address)) return undefined;
  return permissionDenied(`request not authorized: source IP address ${source.address} is not in the IP allowlist ${scope}`);
}

/** Throws the refusal when the caller's organization (or key) restricts the addresses it may call from. */
export function enforceIpAllowlist(rt: Runtime, caller: Caller, req: Pick<IncomingMessage, "headers" | "socket">): void {
  const list = governingAllowlist(rt, caller);
  if (!list) return;
  const refusal = ipAllowlistRefusal(list, sourceAddress(req, rt.families.ipAllowlist.trustProxy));
  if (refusal) throw refusal;
}
