/**
 * Spark: transfers, Lightning receives and FROST signing shares with Spark's statechain
 * operators. None is emulated: the operators do not exist offline.
 */
import { defineNotEmulated } from "../../operations/define.js";
import { NEEDS_OPERATORS } from "../../operations/not-emulated.js";

const SPARK_FROST =
  "a Spark partial signature is the user's share in Spark's own nested FROST scheme with its statechain operators; only Spark's signer library defines it and, without the operators that aggregate it, nothing could check that a share the emulator made is right";

/** Inferred from the names (UNCONFIRMED): each signs with the key `signWith` names. */
const SIGNS = { resource: "PRIVATE_KEY", action: "SIGN", source: "inferred", params: [["sign_with", "signWith"]] } as const;

export const sparkOperations = [
  defineNotEmulated("spark_sign_frost", SPARK_FROST, { policy: SIGNS }),
  defineNotEmulated("spark_prepare_transfer", NEEDS_OPERATORS, { policy: SIGNS }),
  defineNotEmulated("spark_claim_transfer", NEEDS_OPERATORS, { policy: SIGNS }),
  defineNotEmulated("spark_prepare_lightning_receive", NEEDS_OPERATORS, { policy: SIGNS }),
];
