/**
 * QuorumOS versions for TVC deployments. Turnkey's list of supported versions changes with its
 * releases and cannot be known offline, and the emulator runs no QOS at all, so:
 *  - get_tvc_qos_versions answers the emulator's own version label (below), and
 *  - create_tvc_deployment records any well-formed version (`v`-prefixed or bare semver, as
 *    QOS release tags are) without claiming that it exists.
 */
import { InputError, quote } from "../../core/input-error.js";

/** The version label the emulator reports as available and latest. */
export const EMULATOR_QOS_VERSION = "v0.0.0-emulator";

export const AVAILABLE_QOS_VERSIONS: readonly string[] = [EMULATOR_QOS_VERSION];

const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Checks a requested QOS version's form; throws an InputError naming `field`. */
export function checkQosVersion(version: string, field: string): string {
  if (!SEMVER.test(version)) throw new InputError(`${field} must be a QOS version such as ${EMULATOR_QOS_VERSION} (see get_tvc_qos_versions), got ${quote(version)}`, field);
  return version;
}
