/** Cryptographic bundle formats of the emulator: pure functions, no I/O. */
export * from "./p256.js";
export * from "./hpke.js";
export * from "./enclave-keys.js";
export * from "./credential-bundle.js";
export * from "./signed-envelope.js";
export * from "./export-bundle.js";
export * from "./import-bundle.js";
export * from "./otp-bundles.js";
export * from "./jwt.js";
export * from "./oidc-issuer.js";
export * from "./client-signature.js";
export * from "./app-proof.js";
