/** Errors the kit reports (its onError callback) or an action throws, kept for the page to show. */
import { useSyncExternalStore } from "react";

let errors: readonly string[] = [];
const listeners = new Set<() => void>();

export function recordError(error: unknown): void {
  const e = error as { message?: string; code?: string; cause?: { message?: string } };
  const text = [e.code, e.message ?? String(error), e.cause?.message].filter(Boolean).join(": ");
  errors = [...errors, text];
  console.error("wallet-kit example:", text);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useErrors(): readonly string[] {
  return useSyncExternalStore(subscribe, () => errors);
}
