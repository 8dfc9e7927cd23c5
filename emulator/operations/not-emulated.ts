/**
 * Why a published operation is not emulated: the 501 answer, /openapi.json and
 * docs/parity.md all say it from here. An operation without a reason here is simply not
 * built yet.
 */
import type { OperationContract } from "../../contracts/index.js";
import { unimplemented, type TurnkeyError } from "../errors.js";
import type { QueryName, SubmitName } from "./define.js";

const NEEDS_ENCLAVE = "it needs a real enclave: boot proofs are AWS Nitro attestations that only Turnkey's hardware can produce";
const NEEDS_OPERATORS = "it needs external operators, liquidity or vaults that do not exist offline";
const SWAP_STATUS = "it polls a swap, and swaps need a DEX aggregator's quotes and liquidity, which do not exist offline (create_swap_quote and execute_swap answer 501 too)";
const SPARK_FROST = "a Spark partial signature is the user's share in Spark's own nested FROST scheme with its statechain operators; only Spark's signer library defines it and, without the operators that aggregate it, nothing could check that a share the emulator made is right";
const TVC_RUNTIME = "the emulator keeps TVC apps and deployments as records but builds, boots and runs no enclave";

export const NOT_EMULATED_BECAUSE: Partial<Record<SubmitName | QueryName, string>> = {
  get_boot_proof: NEEDS_ENCLAVE,
  get_latest_boot_proof: NEEDS_ENCLAVE,
  execute_swap: NEEDS_OPERATORS,
  create_swap_quote: NEEDS_OPERATORS,
  claim_swap_fees: NEEDS_OPERATORS,
  spark_prepare_transfer: NEEDS_OPERATORS,
  spark_claim_transfer: NEEDS_OPERATORS,
  spark_prepare_lightning_receive: NEEDS_OPERATORS,
  spark_sign_frost: SPARK_FROST,
  get_swap_status: SWAP_STATUS,
  get_app_status: `${TVC_RUNTIME}, so it has no live replica status to report (ready or desired replicas of a running cluster)`,
  get_tvc_deployment_debug_logs: `${TVC_RUNTIME}, so a deployment has no application logs`,
  re_encrypt_tvc_quorum_key_share: `${TVC_RUNTIME}: a hosted operator's share is released only to the ephemeral key of a provisioning enclave whose Nitro attestation document (signed by AWS, over the deployment's manifest) verifies, and no such document exists offline`,
  get_tvc_deployment_provisioning_details: `${TVC_RUNTIME}, so a deployment never awaits provisioning: there is no provisioning enclave's attestation document or manifest envelope to return`,
  validate_tvc_image: "it would pull the container image from its registry to resolve its digest, and the emulator works offline",
};

/** The reason an operation is not emulated (a generic one when none is recorded). */
export function notEmulatedReason(name: string): string {
  return NOT_EMULATED_BECAUSE[name as SubmitName] ?? "it is not emulated yet";
}

/** The 501 answer for a routed operation that has no registry entry. */
export function notEmulated(op: OperationContract): TurnkeyError {
  const what = op.kind === "submit" ? `${op.name} (${op.activityType})` : op.name;
  return unimplemented(`${what} is routed but not emulated: ${notEmulatedReason(op.name)}`);
}
