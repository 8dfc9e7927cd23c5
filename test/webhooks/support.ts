/** Webhook test support: keys from the emulator's JWKS, the official verifier, the control API's view of the outbox. */
import { vi } from "vitest";
import { verifyTurnkeyWebhookSignature, type TurnkeyWebhookVerificationKey } from "@turnkey/crypto";
import type { RunningEmulator } from "../../emulator/index.js";
import { control } from "../control/support.js";
import type { Received } from "./receiver.js";

/** The verification keys a receiver builds from GET /public/v1/discovery/webhooks/jwks. */
export async function jwksKeys(emu: RunningEmulator): Promise<TurnkeyWebhookVerificationKey[]> {
  const res = await fetch(`${emu.url}/public/v1/discovery/webhooks/jwks`);
  const { keys } = (await res.json()) as { keys: { kid: string; x: string; crv: string }[] };
  return keys.filter((k) => k.crv === "Ed25519").map((k) => ({ keyId: k.kid, publicKey: Buffer.from(k.x, "base64url").toString("hex"), algorithm: "ed25519" }));
}

/** @turnkey/crypto's verdict on a received request, at the emulated time (the emulator signs with it). */
export async function verifyReceived(emu: RunningEmulator, r: Received, body: string = r.body) {
  const now = (await control(emu, "GET", "/clock")).json.now as number;
  return verifyTurnkeyWebhookSignature({ headers: r.headers as Record<string, string>, body, verificationKeys: await jwksKeys(emu), maxTimestampAgeMs: 5 * 60_000, nowMs: now });
}

export type DeliveryView = {
  deliveryId: string;
  eventId: string;
  eventType: string;
  organizationId: string;
  subjectOrganizationId: string;
  endpointId: string | null;
  url: string;
  status: "PENDING" | "DELIVERED" | "FAILED" | "CANCELED";
  attempts: number;
  nextAttemptAt: string | null;
  note: string | null;
  history: { attempt: number; at: string; timestampMs: string; statusCode?: number; error?: string; outcome: string }[];
  payload: any;
};

export async function deliveries(emu: RunningEmulator, query: Record<string, string> = {}): Promise<DeliveryView[]> {
  const r = await control(emu, "GET", `/webhooks/deliveries?${new URLSearchParams(query)}`);
  if (r.status !== 200) throw new Error(`deliveries: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.deliveries as DeliveryView[];
}

/** The outbox rows of one activity's events, once `until` holds for them. */
export async function deliveriesOf(emu: RunningEmulator, activityId: string, until: (d: DeliveryView[]) => boolean): Promise<DeliveryView[]> {
  return vi.waitFor(
    async () => {
      const ds = (await deliveries(emu)).filter((d) => d.payload?.id === activityId);
      if (!until(ds)) throw new Error(`deliveries of ${activityId} not there yet: ${JSON.stringify(ds.map((d) => [d.status, d.attempts]))}`);
      return ds;
    },
    { timeout: 10_000, interval: 20 },
  );
}

export const advanceClock = (emu: RunningEmulator, ms: number) => control(emu, "POST", "/clock", { advanceMs: ms });
