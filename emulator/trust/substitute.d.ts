import type { EmulatorEnclaveKeys } from "./emulator-keys.js";
export type Substitutions = ReadonlyArray<readonly [from: string, to: string]>;
export function substitutionsFor(keys: EmulatorEnclaveKeys): Substitutions;
export function isDependency(idOrUrl: string): boolean;
export function substituteEnclaveKeys(code: string, subs: Substitutions): string | null;
