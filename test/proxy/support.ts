/** The auth proxy as @turnkey/core calls it: its generated client's proxy* methods (unstamped). */
// The class is exported as a type only from the package index; its module is importable as is.
// @ts-expect-error no declaration file for the deep .mjs path
import { TurnkeySDKClientBase } from "@turnkey/core/dist/__generated__/sdk-client-base.mjs";
import type { TurnkeySDKClientBase as CoreClient } from "@turnkey/core";
import type { RunningEmulator } from "../../emulator/index.js";
import { readJson } from "../support.js";

export function proxyClient(emu: RunningEmulator, configId = emu.info.authProxyConfigId!): CoreClient {
  return new TurnkeySDKClientBase({ apiBaseUrl: emu.url, authProxyUrl: emu.proxyUrl, authProxyConfigId: configId, organizationId: emu.info.organizationId }) as CoreClient;
}

/** A raw proxy POST (for headers and bodies the SDK never sends). */
export async function proxyPost(emu: RunningEmulator, path: string, body: string | undefined, headers: Record<string, string>): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(emu.proxyUrl + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, json: await readJson(res), headers: res.headers };
}
