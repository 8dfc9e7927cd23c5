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
const EARN_STATUS = "it polls an Earn request, and Earn needs third-party yield vaults and their live on-chain state, which do not exist offline (earn_* activities answer 501 too)";
const SPARK_FROST = "a Spark partial signature is the user's share in Spark's own nested FROST scheme with its statechain operators; only Spark's signer library defines it and, without the operators that aggregate it, nothing could check that a share the emulator made is right";
const TVC_RUNTIME = "the emulator keeps TVC apps and deployments as records but builds, boots and runs no enclave";

export const NOT_EMULATED_BECAUSE: Partial<Record<SubmitName | QueryName, string>> = {
  get_boot_proof: NEEDS_ENCLAVE,
  get_latest_boot_proof: NEEDS_ENCLAVE,
  earn_deploy_wrapper: NEEDS_OPERATORS,
  earn_deposit: NEEDS_OPERATORS,
  earn_withdraw: NEEDS_OPERATORS,
  earn_set_wrapper_state: NEEDS_OPERATORS,
  claim_earn_fees: NEEDS_OPERATORS,
  spark_prepare_transfer: NEEDS_OPERATORS,
  spark_claim_transfer: NEEDS_OPERATORS,
  spark_prepare_lightning_receive: NEEDS_OPERATORS,
  spark_sign_frost: SPARK_FROST,
  get_earn_deploy_status: EARN_STATUS,
  get_earn_deposit_status: EARN_STATUS,
  get_earn_withdraw_status: EARN_STATUS,
  get_claim_earn_fees_status: EARN_STATUS,
  list_earn_vaults: "it lists third-party yield vaults with live TVL and APY, which need the vaults' on-chain state and market data that do not exist offline",
  list_earn_enabled_vaults: "it reports deployed Earn wrappers with on-chain deposits and live APY; deploying a wrapper (earn_deploy_wrapper) needs vaults that do not exist offline",
  list_earn_positions: "it reports Earn positions with value, yield and projected fees from live vault state, which does not exist offline",
  earn_claim_rewards: NEEDS_OPERATORS,
  list_earn_rewards: "it lists rewards accrued by third-party yield vaults, whose on-chain state and reward programs do not exist offline",
  get_earn_claim_rewards_status: EARN_STATUS,
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
