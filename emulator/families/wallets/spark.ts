/**
 * Spark: transfers, Lightning receives and FROST signing shares with Spark's statechain
 * operators. None is emulated: the operators do not exist offline.
 */
import { defineNotEmulated } from "../../core/vocabulary/define.js";

const SPARK_FROST =
  "a Spark partial signature is the user's share in Spark's own nested FROST scheme with its statechain operators; only Spark's signer library defines it and, without the operators that aggregate it, nothing could check that a share the emulator made is right";

/** Transfers and Lightning receives are leaf swaps that Spark's statechain operators (and, for Lightning, its service provider) co-sign and record. */
const SPARK_OPERATORS =
  "a Spark transfer or Lightning receive is co-signed and recorded by Spark's statechain operators (a Lightning receive also by Spark's service provider), which do not exist offline";

/** Inferred from the names (UNCONFIRMED): each signs with the key `signWith` names. */
const SIGNS = { resource: "PRIVATE_KEY", action: "SIGN", source: "inferred", params: [["sign_with", "signWith"]] } as const;

export const sparkOperations = [
  defineNotEmulated("spark_sign_frost", SPARK_FROST, { policy: SIGNS }),
  defineNotEmulated("spark_prepare_transfer", SPARK_OPERATORS, { policy: SIGNS }),
  defineNotEmulated("spark_claim_transfer", SPARK_OPERATORS, { policy: SIGNS }),
  defineNotEmulated("spark_prepare_lightning_receive", SPARK_OPERATORS, { policy: SIGNS }),
];
