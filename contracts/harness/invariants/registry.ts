/**
 * Invariants: checks that must hold on any deployment (the values differ run to run, the
 * relations between them do not). Each is a named plug-in taking interpolated `args`.
 */
export type InvariantOutcome = { outcome: "pass" | "fail" | "unavailable"; message: string };

export type Invariant = {
  name: string;
  description: string;
  check(args: Record<string, unknown>): InvariantOutcome | Promise<InvariantOutcome>;
};

const registry = new Map<string, Invariant>();

export function registerInvariant(inv: Invariant): void {
  registry.set(inv.name, inv);
}

export function invariantNames(): string[] {
  return [...registry.keys()].sort();
}

export function getInvariant(name: string): Invariant | undefined {
  return registry.get(name);
}

export async function runInvariant(name: string, args: Record<string, unknown>): Promise<InvariantOutcome> {
  const inv = registry.get(name);
  if (!inv) return { outcome: "fail", message: `unknown invariant ${name}` };
  try {
    return await inv.check(args);
  } catch (e) {
    return { outcome: "fail", message: `${name} threw: ${(e as Error).message}` };
  }
}

export const pass = (message: string): InvariantOutcome => ({ outcome: "pass", message });
export const fail = (message: string): InvariantOutcome => ({ outcome: "fail", message });
export const unavailable = (message: string): InvariantOutcome => ({ outcome: "unavailable", message });
