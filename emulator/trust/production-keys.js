// @ts-check
/**
 * The production enclave public keys that Turnkey's client packages compile in
 * (@turnkey/crypto's constants: PRODUCTION_SIGNER_SIGN_PUBLIC_KEY and friends), each with
 * the emulator role whose key stands in for it. These are public values, published in the
 * packages themselves; the substitution swaps them as literal text, so it works on any build
 * of a package (CJS, ESM, pre-bundled, minified) without knowing its variable names.
 */

/** @type {ReadonlyArray<{ name: string; value: string; role: "signer" | "tlsFetcher" | "notarizer" | "onRamp" }>} */
export const PRODUCTION_ENCLAVE_KEYS = Object.freeze([
  {
    name: "PRODUCTION_SIGNER_SIGN_PUBLIC_KEY",
    value: "04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569",
    role: "signer",
  },
  {
    name: "PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY",
    value: "04d498aa87ac3bf982ac2b5dd9604d0074905cfbda5d62727c5a237b895e6749205e9f7cd566909c4387f6ca25c308445c60884b788560b785f4a96ac33702a469",
    role: "notarizer",
  },
  {
    name: "PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY",
    value: "046b4f88421f76b6ba418afc2ea1d8ced671337d7db6b80478a60d8531bf8f17fa9a512f0fef96fc0c9b4cd9dff70b34992e520ce04c79d931f6ff6296b547d201",
    role: "tlsFetcher",
  },
  {
    // The emulator holds one TLS-fetcher key pair for both signing and encryption.
    name: "PRODUCTION_TLS_FETCHER_ENCRYPT_PUBLIC_KEY",
    value: "045e899f1fcf7d12b3c8fd997a7a43bb853dd4e8d63419a8f867c70aacc1c4cf9d04848baca41f0c85ffbbd23cbf78967501cd8eca9e4a6369370a9a38f70d13c0",
    role: "tlsFetcher",
  },
  {
    // Compressed, as encryptOnRampSecret takes it (the fiat on-ramp credentials key).
    name: "PRODUCTION_ON_RAMP_CREDENTIALS_ENCRYPTION_PUBLIC_KEY",
    value: "02336ebd7e929ef64b87c776b72540255b4c7b41579a24b1e68fb060daa873f9f6",
    role: "onRamp",
  },
]);
