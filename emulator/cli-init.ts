/**
 * `emulator init`: writes a starter fixture of the project's own, `turnkey-emulator.jsonc`, at the
 * project root (fixtures/project-file.ts), commented field by field: an organization with a root
 * user and a backend user (API keys), a passkey user, a wallet with accounts in several address
 * formats, a policy letting the backend sign, and an auth-proxy configuration. `emulator start`,
 * `startEmulator()` and the test helpers then seed it without a flag.
 *
 * Every id, key and the mnemonic are made fresh for the project, private halves included: the
 * file is for local development and tests only, like the package's own fixtures.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { createRandom, type Random } from "./core/random.js";
import { generateMnemonic } from "./derivation/index.js";
import { PROJECT_FIXTURE } from "./fixtures/project-file.js";

export const INIT_USAGE = `usage: emulator init [--dir DIR] [--force]

Writes ${PROJECT_FIXTURE}, a commented starter fixture of your project's own (an organization,
users with API keys, a passkey user, a wallet with accounts in several address formats, a
policy, an auth-proxy configuration), with fresh ids and keys. \`emulator start\`,
startEmulator() and the vitest/jest helpers seed it when it is at the project root, without a flag.

  --dir DIR   where to write it (default: the working directory)
  --force     overwrite an existing ${PROJECT_FIXTURE}`;

/** A fresh P-256 key pair as the fixture writes it: compressed public key (API keys) or uncompressed (passkeys), hex. */
function keyPair(random: Random, compressed: boolean) {
  const secret = p256.utils.randomSecretKey(random.bytes(p256.lengths.seed!));
  return { publicKey: bytesToHex(p256.getPublicKey(secret, compressed)), privateKey: bytesToHex(secret) };
}

/** The starter fixture's text, with ids, keys and a mnemonic drawn from `random`. */
export function starterFixture(random: Random = createRandom()): string {
  const id = () => random.uuid();
  const [orgId, rootId, backendId, passkeyUserId, walletId, policyId, configId] = [id(), id(), id(), id(), id(), id(), id()];
  const rootKey = keyPair(random, true);
  const backendKey = keyPair(random, true);
  const passkey = keyPair(random, false);
  const credentialId = Buffer.from(random.bytes(16)).toString("base64url");
  const mnemonic = generateMnemonic(12, random);
  return `// Seed state of the Turnkey API emulator for this project, written by \`npx emulator init\`.
// \`npx emulator start\`, startEmulator() and the vitest/jest helpers (turnkey-emulator/vitest,
// turnkey-emulator/jest) seed it when it is at the project root; each test file starts from it.
// The format: node_modules/turnkey-emulator/fixtures/fixture.schema.json (your editor reads the
// $schema line below) and the README's "Fixture format". Comments and trailing commas are allowed.
//
// Every key, passkey and the mnemonic below were made for this project by \`emulator init\`: they
// are for local development and tests only. Never give them value on a real service.
{
  "$schema": "./node_modules/turnkey-emulator/fixtures/fixture.schema.json",
  "organization": {
    // Your organization as the emulator serves it: the id requests send as organizationId.
    "organizationId": "${orgId}",
    "organizationName": "My App (emulator)",
    // Approvals of root users a root activity needs.
    "rootQuorumThreshold": 1,
    "users": [
      {
        // The root user: its first API key is the dev key the banner, /emulator/v1/info and the
        // test helpers (inject("turnkey"), turnkeyEnv()) hand out as apiPublicKey/apiPrivateKey.
        "userId": "${rootId}",
        "userName": "Admin",
        "userEmail": "admin@example.com",
        "root": true,
        "apiKeys": [
          {
            "apiKeyId": "${id()}",
            "apiKeyName": "Admin dev key",
            "curveType": "API_KEY_CURVE_P256",
            "publicKey": "${rootKey.publicKey}",
            // Published here so that tools and tests can stamp requests with it.
            "privateKey": "${rootKey.privateKey}",
          },
        ],
      },
      {
        // A non-root user, as a backend service is: it may do only what a policy allows.
        "userId": "${backendId}",
        "userName": "Backend service",
        "apiKeys": [
          {
            "apiKeyId": "${id()}",
            "apiKeyName": "Backend key",
            "curveType": "API_KEY_CURVE_P256",
            "publicKey": "${backendKey.publicKey}",
            "privateKey": "${backendKey.privateKey}",
          },
        ],
      },
      {
        // A user who signs in with a passkey (a WebAuthn credential on P-256). Its private key is
        // published so that a test can answer WebAuthn challenges as this authenticator.
        "userId": "${passkeyUserId}",
        "userName": "Passkey user",
        "userEmail": "passkey-user@example.com",
        "authenticators": [
          {
            "authenticatorName": "Laptop passkey",
            "credentialId": "${credentialId}",
            "publicKey": "${passkey.publicKey}",
            "privateKey": "${passkey.privateKey}",
            "transports": ["AUTHENTICATOR_TRANSPORT_INTERNAL", "AUTHENTICATOR_TRANSPORT_HYBRID"],
          },
        ],
      },
    ],
    "wallets": [
      {
        // An HD wallet; each account is derived from the mnemonic at its path.
        "walletId": "${walletId}",
        "walletName": "Treasury",
        "mnemonic": "${mnemonic}",
        "accounts": [
          { "curve": "CURVE_SECP256K1", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/44'/60'/0'/0/0", "addressFormat": "ADDRESS_FORMAT_ETHEREUM" },
          { "curve": "CURVE_ED25519", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/44'/501'/0'/0'", "addressFormat": "ADDRESS_FORMAT_SOLANA" },
          { "curve": "CURVE_SECP256K1", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/84'/0'/0'/0/0", "addressFormat": "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH" },
          { "curve": "CURVE_SECP256K1", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/44'/195'/0'/0/0", "addressFormat": "ADDRESS_FORMAT_TRON" },
        ],
      },
    ],
    "policies": [
      {
        // Policies are written in Turnkey's policy language; the emulator compiles them at start.
        "policyId": "${policyId}",
        "policyName": "Backend may sign with the treasury wallet",
        "effect": "EFFECT_ALLOW",
        "consensus": "approvers.any(user, user.id == '${backendId}')",
        "condition": "activity.action == 'SIGN' && wallet.id == '${walletId}'",
        "notes": "Written by emulator init: the backend signs, nothing else.",
      },
    ],
    // The auth proxy (POST /v1/... with X-Auth-Proxy-Config-ID) for a front end: the wallet kit,
    // @turnkey/core. OTP codes it sends land in the emulator's mailbox (/emulator/v1/mailbox).
    "authProxy": {
      "configId": "${configId}",
      "allowedOrigins": ["http://localhost:3000", "http://localhost:5173"],
      "enabledProviders": ["email", "sms", "passkey", "wallet", "google"],
      "sessionExpirationSeconds": 900,
      "otpLength": 6,
      "otpAlphanumeric": false,
      "appName": "My App",
    },
  },
}
`;
}

/** Runs `emulator init <argv>`; gives the exit code (0 written, 1 not written, 2 usage). */
export function initCommand(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s), err: (s: string) => void = (s) => process.stderr.write(s)): number {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { dir: { type: "string" }, force: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } }, strict: true, allowPositionals: false }));
  } catch (e) {
    err(`${(e as Error).message}\n\n${INIT_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    out(`${INIT_USAGE}\n`);
    return 0;
  }
  const dir = resolve(values.dir ?? process.cwd());
  const file = join(dir, PROJECT_FIXTURE);
  if (!existsSync(dir)) {
    err(`${dir} does not exist\n`);
    return 1;
  }
  if (existsSync(file) && !values.force) {
    err(`${file} exists already: edit it, or give --force to write a new one over it\n`);
    return 1;
  }
  writeFileSync(file, starterFixture());
  const shown = relative(process.cwd(), file) || PROJECT_FIXTURE;
  out(`Wrote ${shown}: a starter fixture with fresh ids and keys (development only).
\`npx emulator start\`, startEmulator() and the test helpers seed it from the project root without a flag.
`);
  return 0;
}
