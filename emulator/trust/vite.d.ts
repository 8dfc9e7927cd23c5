import type { Plugin } from "vite";
import type { EmulatorEnclaveKeys } from "./emulator-keys.js";

export type TrustOptions = {
  /** The fixture organization id seeding the emulator's keys. */
  organizationId?: string;
  /** A fixture file: a path, or a name under the package's fixtures/. */
  fixture?: string;
  /** The keys themselves, as /emulator/v1/info lists them. */
  keys?: EmulatorEnclaveKeys;
  /** Act in a production build too. */
  force?: boolean;
};

/** Substitutes the production enclave key literals in dependency code with the emulator's keys (dev only). */
export default function turnkeyEmulatorTrust(options?: TrustOptions): Plugin;
export { turnkeyEmulatorTrust };
