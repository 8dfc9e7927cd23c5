/**
 * The 501 answer for a routed operation the emulator does not emulate, and the reasons more
 * than one family gives. Each operation declares its own reason where it would live
 * (`defineNotEmulated` in its family's module); the registry gathers them, and the 501
 * answer, /openapi.json and docs/parity.md say them from there.
 */
import type { OperationContract } from "../../../contracts/index.js";
import { unimplemented, type TurnkeyError } from "../errors.js";

/** The reason of an operation that has neither an entry nor a declared reason. */
export const NOT_YET = "it is not emulated yet";

/** TVC: the emulator keeps its records but runs nothing (each reason says what follows from it). */
export const TVC_RUNTIME = "the emulator keeps TVC apps and deployments as records but builds, boots and runs no enclave";

/** The 501 answer for a routed operation that has no registry entry, with why (`registry.notEmulatedReason`). */
export function notEmulatedError(op: OperationContract, reason: string): TurnkeyError {
  const what = op.kind === "submit" ? `${op.name} (${op.activityType})` : op.name;
  return unimplemented(`${what} is routed but not emulated: ${reason}`);
}
