import type { Compiler } from "webpack";
import type { TrustOptions } from "./vite.js";

/** Adds a pre-loader that swaps the production enclave key literals in dependency code for the emulator's keys (dev only). */
export class TurnkeyEmulatorTrustPlugin {
  constructor(options?: TrustOptions);
  readonly options: TrustOptions;
  apply(compiler: Compiler): void;
}
export default TurnkeyEmulatorTrustPlugin;
