/** The built-in invariants; `registerInvariant` adds more. */
import { registerInvariant } from "./registry.js";
import { signatureVerifies } from "./signature.js";
import { mnemonicDerives } from "./mnemonic.js";
import { transactionSignedBy } from "./transaction.js";

registerInvariant(signatureVerifies);
registerInvariant(mnemonicDerives);
registerInvariant(transactionSignedBy);

export { registerInvariant, invariantNames, getInvariant, runInvariant, type Invariant, type InvariantOutcome } from "./registry.js";
