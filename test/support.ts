/**
 * Shared end-to-end test support: a fresh emulator per suite and clients built the way an
 * application builds them (official SDKs, official stamper).
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../emulator/index.js";
import { writeHeld } from "../emulator/core/store/held-writes.js";

export type KeyPair = { publicKey: string; privateKey: string };

export function newP256KeyPair(): KeyPair {
  const privateKey = p256.utils.randomSecretKey();
  return { privateKey: bytesToHex(privateKey), publicKey: bytesToHex(p256.getPublicKey(privateKey, true)) };
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, validateResponses: true, ...options });
}

/** `@turnkey/sdk-server` API client for the seeded organization (or another key/org). */
export function sdkClient(emu: RunningEmulator, key?: KeyPair, organizationId = emu.info.organizationId) {
  return new Turnkey({
    apiBaseUrl: emu.url,
    defaultOrganizationId: organizationId,
    apiPublicKey: key?.publicKey ?? emu.info.apiPublicKey!,
    apiPrivateKey: key?.privateKey ?? emu.info.apiPrivateKey!,
    // The emulator answers synchronously; only CONSENSUS_NEEDED makes the SDK poll. Keep that quick.
    activityPoller: { intervalMs: 20, numRetries: 2 },
  }).apiClient();
}

/** `@turnkey/http` client with the official API-key stamper. */
export function httpClient(emu: RunningEmulator, key?: KeyPair): TurnkeyClient {
  return new TurnkeyClient(
    { baseUrl: emu.url },
    new ApiKeyStamper({ apiPublicKey: key?.publicKey ?? emu.info.apiPublicKey!, apiPrivateKey: key?.privateKey ?? emu.info.apiPrivateKey! }),
  );
}

/** Stamps a body with the official stamper; returns the header pair for raw requests. */
export async function stampBody(body: string, key: KeyPair): Promise<{ stampHeaderName: string; stampHeaderValue: string }> {
  return new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(body);
}

/** POSTs a raw body with a stamp made by the official stamper (or none). */
export async function rawPost(
  emu: RunningEmulator,
  path: string,
  body: string,
  opts: { key?: KeyPair | null; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
  const key = opts.key === undefined ? devKey(emu) : opts.key;
  if (key) {
    const s = await stampBody(body, key);
    headers[s.stampHeaderName] = s.stampHeaderValue;
  }
  const res = await fetch(emu.url + path, { method: "POST", headers, body });
  return { status: res.status, json: await readJson(res) };
}

/** The response body as JSON, or as text when it is not JSON. */
export async function readJson(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What an SDK call throws for an error answer (`TurnkeyRequestError`: code, message, details). */
export type SdkError = { code: number; message: string; details: { "@type": string; turnkeyErrorCode?: string; fieldViolations?: { field: string; description: string }[] }[] };

/** The error an SDK call was refused with; throws if the call succeeded. */
export async function refusal(call: Promise<unknown>): Promise<SdkError> {
  try {
    await call;
  } catch (e) {
    return e as SdkError;
  }
  throw new Error("expected the request to be refused");
}

/** The field the first BadRequest detail names. */
export const violatedField = (e: { details?: SdkError["details"] | null }): string | undefined => e.details?.find((d) => d.fieldViolations)?.fieldViolations?.[0]?.field;

/** Moves the emulated clock forward through the control API. */
export async function advanceClock(emu: RunningEmulator, advanceMs: number): Promise<void> {
  const res = await fetch(`${emu.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advanceMs }) });
  if (!res.ok) throw new Error(`clock: HTTP ${res.status} ${await res.text()}`);
}

/** A protobuf Timestamp as the SDKs read it (`{seconds, nanos}`, strings) in milliseconds since the epoch, whole. */
export const timestampMs = (t: { seconds: string; nanos: string }): number => Number(t.seconds) * 1000 + Math.floor(Number(t.nanos) / 1e6);

export const devKey = (emu: RunningEmulator): KeyPair => ({ publicKey: emu.info.apiPublicKey!, privateKey: emu.info.apiPrivateKey! });

export function submitBody(emu: RunningEmulator, type: string, parameters: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters, ...extra });
}

/** A snapshot of every table's row count, to prove a failed request wrote nothing. */
export function storeCounts(emu: RunningEmulator): Record<string, number> {
  const db = emu.runtime.store.db;
  // Held webhook outbox rows are written at a quiet moment; a whole-store count writes them first, as a snapshot does.
  writeHeld(db);
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((t) => t.name);
  return Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n]));
}

/** Polls get_send_transaction_status until the send leaves BROADCASTING (fails after ~2 s). */
export async function pollSendStatus(emu: RunningEmulator, sendTransactionStatusId: string) {
  const client = sdkClient(emu);
  for (let i = 0; i < 100; i++) {
    const s = await client.getSendTransactionStatus({ sendTransactionStatusId });
    if (s.txStatus !== "BROADCASTING") return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`status ${sendTransactionStatusId} never settled`);
}

/**
 * Runs `emulator start <args>` as its own process (the TypeScript CLI, or `cli`: node's arguments
 * before `start`, e.g. a built bundle) and waits for the banner to print the dev key; gives the
 * process (the caller kills it), everything it printed so far, and the coordinator URL.
 */
export async function startCliEmulator(
  args: string[],
  timeoutMs: number,
  cli: string[] = ["--import", "tsx", "emulator/cli.ts"],
): Promise<{ child: ChildProcess; out: string; url: string }> {
  const child = spawn(process.execPath, [...cli, "start", ...args], { cwd: join(import.meta.dirname, ".."), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), timeoutMs);
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("API private key")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
  } catch (err) {
    child.kill("SIGTERM");
    throw err;
  }
  return { child, out, url: /Coordinator API\s+(\S+)/.exec(out)![1]! };
}

/** Creates a user in the emulator's organization holding one new P-256 API key; gives the user's id and the key. */
export async function createApiKeyUser(emu: RunningEmulator, userName: string): Promise<{ id: string; key: KeyPair }> {
  const key = newP256KeyPair();
  const r = await sdkClient(emu).createUsers({ users: [{ userName, apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
  return { id: r.userIds[0]!, key };
}
