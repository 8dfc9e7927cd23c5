/** Control-API calls as an application's test suite would make them (plain fetch). */
import type { RunningEmulator } from "../../emulator/index.js";

export async function control(emu: RunningEmulator, method: string, path: string, body?: unknown): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(`${emu.url}/emulator/v1${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, headers: res.headers };
}

/** The first field violation of an rpcStatus body. */
export const violatedField = (rpc: { details?: { fieldViolations?: { field: string }[] }[] }): string | undefined =>
  rpc.details?.find((d) => d.fieldViolations)?.fieldViolations?.[0]?.field;
