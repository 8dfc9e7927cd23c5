/** A stamping client for the benchmarks: one keep-alive connection, stamps made with the official API-key stamper. */
import http from "node:http";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";

export type Key = { publicKey: string; privateKey: string };
export type Answer = { status: number; json: any };

export function newP256Key(): Key {
  const privateKey = p256.utils.randomSecretKey();
  return { privateKey: bytesToHex(privateKey), publicKey: bytesToHex(p256.getPublicKey(privateKey, true)) };
}

export class Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly stamper: ApiKeyStamper;
  constructor(
    readonly base: string,
    key: Key,
    readonly organizationId: string,
  ) {
    this.stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  }
  /** A stamped body and its headers, ready to send (stamping is not part of what a load measures). */
  async stamped(payload: Record<string, unknown>): Promise<{ body: string; headers: Record<string, string> }> {
    const body = JSON.stringify({ organizationId: this.organizationId, ...payload });
    const s = await this.stamper.stamp(body);
    return { body, headers: { [s.stampHeaderName]: s.stampHeaderValue } };
  }
  /**
   * A keep-alive socket left idle longer than the server's keep-alive timeout (the state
   * benchmark fills the database between requests) may be closed as it is reused: such a
   * reset is retried once on a new connection (every request here is idempotent: queries,
   * or submissions the fingerprint deduplicates).
   */
  async send(path: string, body: string, headers: Record<string, string>): Promise<Answer> {
    try {
      return await this.sendOnce(path, body, headers);
    } catch (e) {
      if ((e as { code?: string }).code !== "ECONNRESET" && (e as { code?: string }).code !== "EPIPE") throw e;
      return this.sendOnce(path, body, headers);
    }
  }
  private sendOnce(path: string, body: string, headers: Record<string, string>): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        new URL(path, this.base),
        { method: "POST", agent: this.agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let json: any;
            try {
              json = JSON.parse(text);
            } catch {
              json = text;
            }
            resolve({ status: res.statusCode ?? 0, json });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }
  async call(path: string, payload: Record<string, unknown>): Promise<Answer> {
    const { body, headers } = await this.stamped(payload);
    return this.send(path, body, headers);
  }
  submit(op: string, type: string, parameters: unknown, timestampMs = String(Date.now())) {
    return this.call(`/public/v1/submit/${op}`, { type, timestampMs, parameters });
  }
  query(op: string, payload: Record<string, unknown> = {}) {
    return this.call(`/public/v1/query/${op}`, payload);
  }
  close() {
    this.agent.destroy();
  }
}

export const ETH_ACCOUNT = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" };

/** Fails loudly when an answer is not a completed activity. */
export function completed(what: string, r: Answer): any {
  if (r.status !== 200 || r.json?.activity?.status !== "ACTIVITY_STATUS_COMPLETED") throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
  return r.json.activity;
}

/** A sub-organization with one root user holding `key` and a wallet with one Ethereum account; returns its id and address. */
export async function createSubOrganization(parent: Client, name: string, key: Key | null): Promise<{ id: string; address: string }> {
  const r = await parent.submit("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", {
    subOrganizationName: name,
    rootUsers: [{ userName: `${name} root`, apiKeys: key ? [{ apiKeyName: "bench key", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }] : [], authenticators: [], oauthProviders: [] }],
    rootQuorumThreshold: 1,
    wallet: { walletName: `${name} wallet`, accounts: [ETH_ACCOUNT] },
  });
  const result = completed("create_sub_organization", r).result.createSubOrganizationResultV8;
  return { id: result.subOrganizationId, address: result.wallet.addresses[0] };
}
