export const PRODUCTION_ENCLAVE_KEYS: ReadonlyArray<{ name: string; value: string; role: "signer" | "tlsFetcher" | "notarizer" | "onRamp" }>;
