/**
 * Sends fuzz bodies as exact bytes: stamped by the official API-key stamper (over the raw
 * bytes, invalid UTF-8 included), unstamped, or as an auth-proxy call.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import type { KeyPair } from "../support.js";

export type Answer = { status: number; text: string; contentType: string };

export type Credentials =
  | { kind: "stamp"; key: KeyPair }
  | { kind: "none" }
  | { kind: "proxy"; configId: string | null; origin: string };

export async function send(baseUrl: string, path: string, bytes: Buffer, creds: Credentials): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (creds.kind === "stamp") {
    const stamper = new ApiKeyStamper({ apiPublicKey: creds.key.publicKey, apiPrivateKey: creds.key.privateKey, runtimeOverride: "node" });
    // The node runtime signs Buffer.from(payload): a Buffer passes through byte for byte.
    const s = await stamper.stamp(bytes as unknown as string);
    headers[s.stampHeaderName] = s.stampHeaderValue;
  }
  if (creds.kind === "proxy") {
    headers.origin = creds.origin;
    if (creds.configId) headers["x-auth-proxy-config-id"] = creds.configId;
  }
  const res = await fetch(baseUrl + path, { method: "POST", headers, body: new Uint8Array(bytes) });
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") ?? "" };
}
