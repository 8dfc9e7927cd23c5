/** Pre-stamped request bodies, so that client-side signing is not part of what is measured. */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import type { RunningEmulator } from "../../emulator/index.js";

export async function stampedSubmissions(emu: RunningEmulator, type: string, makeParams: (i: number) => unknown, count: number) {
  const stamper = new ApiKeyStamper({ apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey! });
  const out: { body: string; headers: Record<string, string> }[] = [];
  const ts = Date.now();
  for (let i = 0; i < count; i++) {
    // Distinct timestampMs values make every body (and fingerprint) unique.
    const body = JSON.stringify({ type, timestampMs: String(ts + i), organizationId: emu.info.organizationId, parameters: makeParams(i) });
    const s = await stamper.stamp(body);
    out.push({ body, headers: { [s.stampHeaderName]: s.stampHeaderValue } });
  }
  return out;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
