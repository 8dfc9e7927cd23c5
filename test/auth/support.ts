/** Helpers for the auth suites: the emulator's control API as an app's test would use it. */
import type { RunningEmulator } from "../../emulator/index.js";

export type MailMessage = { contact: string; channel: string; subject: string; body: string; otpCode?: string; otpId?: string; credentialBundle?: string; magicLink?: string };

export async function mailbox(emu: RunningEmulator, contact: string): Promise<MailMessage[]> {
  const res = await fetch(`${emu.url}/emulator/v1/mailbox?contact=${encodeURIComponent(contact)}`);
  return (await res.json()) as MailMessage[];
}

export async function lastMail(emu: RunningEmulator, contact: string): Promise<MailMessage> {
  const all = await mailbox(emu, contact);
  if (!all.length) throw new Error(`no mail for ${contact}`);
  return all[all.length - 1]!;
}

/** An id_token from the built-in OIDC issuer. */
export async function mintIdToken(emu: RunningEmulator, claims: { sub: string; aud: string; email?: string; nonce?: string; expiresInSeconds?: number }): Promise<string> {
  const res = await fetch(`${emu.url}/emulator/v1/oidc/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(claims) });
  if (res.status !== 200) throw new Error(`mint failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id_token: string }).id_token;
}

export type Info = { organizationId: string; signerPublicKey: string; tlsFetcherPublicKey: string; notarizerPublicKey: string; oidcIssuer: string; walletId: string };

export async function info(emu: RunningEmulator): Promise<Info> {
  return (await (await fetch(`${emu.url}/emulator/v1/info`)).json()) as Info;
}
