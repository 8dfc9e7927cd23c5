/**
 * Earn: deposits into third-party yield vaults through a wrapper contract, and the queries
 * about them. None is emulated: the vaults, their live on-chain state and market data do
 * not exist offline.
 */
import { defineNotEmulated } from "../../operations/define.js";
import { NEEDS_OPERATORS } from "../../operations/not-emulated.js";

const EARN_STATUS = "it polls an Earn request, and Earn needs third-party yield vaults and their live on-chain state, which do not exist offline (earn_* activities answer 501 too)";

export const earnOperations = [
  defineNotEmulated("earn_deploy_wrapper", NEEDS_OPERATORS),
  defineNotEmulated("earn_deposit", NEEDS_OPERATORS),
  defineNotEmulated("earn_withdraw", NEEDS_OPERATORS),
  defineNotEmulated("earn_set_wrapper_state", NEEDS_OPERATORS),
  defineNotEmulated("claim_earn_fees", NEEDS_OPERATORS),
  defineNotEmulated("earn_claim_rewards", NEEDS_OPERATORS),
  defineNotEmulated("get_earn_deploy_status", EARN_STATUS),
  defineNotEmulated("get_earn_deposit_status", EARN_STATUS),
  defineNotEmulated("get_earn_withdraw_status", EARN_STATUS),
  defineNotEmulated("get_claim_earn_fees_status", EARN_STATUS),
  defineNotEmulated("get_earn_claim_rewards_status", EARN_STATUS),
  defineNotEmulated("list_earn_vaults", "it lists third-party yield vaults with live TVL and APY, which need the vaults' on-chain state and market data that do not exist offline"),
  defineNotEmulated(
    "list_earn_enabled_vaults",
    "it reports deployed Earn wrappers with on-chain deposits and live APY; deploying a wrapper (earn_deploy_wrapper) needs vaults that do not exist offline",
  ),
  defineNotEmulated("list_earn_positions", "it reports Earn positions with value, yield and projected fees from live vault state, which does not exist offline"),
  defineNotEmulated("list_earn_rewards", "it lists rewards accrued by third-party yield vaults, whose on-chain state and reward programs do not exist offline"),
];
