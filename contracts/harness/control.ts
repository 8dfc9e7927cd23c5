/**
 * Control steps: calls to the emulator's own control API (`/emulator/v1/...`), which no live
 * deployment has. A scenario may use them only when it is emulator-only (`targets: [emulator]`).
 * Each action is one route; a step names exactly one: `control: { clock: { advanceMs: 1000 } }`.
 */
import { z } from "zod";

export type ControlAction = { method: "GET" | "POST"; path: string; params: z.ZodType; description: string };

export const CONTROL_ACTIONS = {
  clock: {
    method: "POST",
    path: "/emulator/v1/clock",
    params: z
      .object({
        advanceMs: z.number().int().nonnegative().describe("moves the emulated clock (and the local chains' block time) forwards by this many ms").optional(),
        set: z.union([z.number().int().nonnegative(), z.string()]).describe("sets the emulated clock: ms since the epoch or an ISO 8601 instant").optional(),
      })
      .strict()
      .refine((p) => (p.advanceMs === undefined) !== (p.set === undefined), { message: "give exactly one of advanceMs and set" }),
    description: "POST /emulator/v1/clock: advance ({advanceMs}) or set ({set}) the emulated clock",
  },
  info: {
    method: "GET",
    path: "/emulator/v1/info",
    params: z.object({}).strict(),
    description: "GET /emulator/v1/info: the seeded organization, its root user, API key and wallet (walletId)",
  },
} as const satisfies Record<string, ControlAction>;

export type ControlName = keyof typeof CONTROL_ACTIONS;
export const CONTROL_NAMES = Object.keys(CONTROL_ACTIONS) as ControlName[];

/** The one action a `control:` object names, with its parameters. */
export function controlCall(control: Record<string, unknown>): { name: ControlName; action: ControlAction; params: unknown } {
  const name = Object.keys(control)[0] as ControlName;
  return { name, action: CONTROL_ACTIONS[name], params: control[name] ?? {} };
}

/** How a run tells an emulator from a live deployment: the emulator answers this with its clock. */
export const EMULATOR_PROBE_PATH = "/emulator/v1/clock";

/** True when a probe's answer is the emulator's clock view ({now, iso, offsetMs}). */
export function isEmulatorProbe(status: number, body: unknown): boolean {
  const b = body as { now?: unknown; offsetMs?: unknown } | undefined;
  return status === 200 && typeof b?.now === "number" && typeof b.offsetMs === "number";
}
