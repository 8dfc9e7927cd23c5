/**
 * How a test suite reaches a running emulator, in one shape for every helper: the vitest global
 * setup hands it to tests through `inject("turnkey")`, the jest global setup through TURNKEY_*
 * environment variables, `emulator env` prints it as shell exports or a dotenv file.
 *
 * Each official SDK and example reads its connection from a different variable, so the same
 * value goes out under every name one of them reads (VARIABLES below says which reads which).
 */
import type { EmulatorInfo } from "../index.js";

export type TurnkeyEmulatorConnection = {
  /** The coordinator API's base URL: `apiBaseUrl` of @turnkey/sdk-server, `baseUrl` of @turnkey/http. */
  url: string;
  /** The auth proxy's base URL (`authProxyUrl` of @turnkey/core and the wallet kit). */
  proxyUrl: string;
  /** The seeded auth-proxy configuration (`X-Auth-Proxy-Config-ID`), if the fixture has one. */
  authProxyConfigId: string | null;
  organizationId: string;
  /** The root user the dev API key belongs to. */
  rootUserId: string;
  /** The fixture's well-known dev API key pair (PUBLIC and INSECURE), if it has one. */
  apiPublicKey: string | null;
  apiPrivateKey: string | null;
  /** The seeded HD wallet, if the fixture has one. */
  walletId: string | null;
};

/** The part of GET /emulator/v1/info (EmulatorInfo) a connection is made from. */
export type ConnectionInfo = Pick<EmulatorInfo, "baseUrl" | "authProxyUrl" | "authProxyConfigId" | "organizationId" | "rootUserId" | "apiPublicKey" | "apiPrivateKey" | "walletId">;

/**
 * The connection `info` describes. `reachedAt` is the URL the caller reached the emulator at
 * (`emulator env --url`): the URLs then keep that origin, since the emulator only knows the
 * address it listens on (127.0.0.1 under `--host 0.0.0.0`, not a container's service name).
 */
export function connectionOf(info: ConnectionInfo, reachedAt?: string): TurnkeyEmulatorConnection {
  const origin = reachedAt ? new URL(reachedAt).origin : undefined;
  const rebase = (url: string) => (origin && url.startsWith(info.baseUrl) ? origin + url.slice(info.baseUrl.length) : url);
  return {
    url: rebase(info.baseUrl),
    proxyUrl: rebase(info.authProxyUrl),
    authProxyConfigId: info.authProxyConfigId,
    organizationId: info.organizationId,
    rootUserId: info.rootUserId,
    apiPublicKey: info.apiPublicKey,
    apiPrivateKey: info.apiPrivateKey,
    walletId: info.walletId,
  };
}

type Field = Exclude<keyof TurnkeyEmulatorConnection, "walletId">;

/** Every variable the helpers set, the field it carries and who reads it under that name. */
export const VARIABLES: readonly { name: string; field: Field; readBy: string }[] = [
  { name: "TURNKEY_API_BASE_URL", field: "url", readBy: "Turnkey's `tk` CLI (Rust), `emulator conformance`" },
  { name: "TURNKEY_BASE_URL", field: "url", readBy: "Python SDK tests" },
  { name: "TURNKEY_ORGANIZATION_ID", field: "organizationId", readBy: "Python SDK tests, Rust and Ruby SDK examples, `tk`" },
  { name: "TURNKEY_USER_ID", field: "rootUserId", readBy: "Python SDK tests" },
  { name: "TURNKEY_API_PUBLIC_KEY", field: "apiPublicKey", readBy: "Python SDK tests, Rust and Ruby SDK examples, `tk`" },
  { name: "TURNKEY_API_PRIVATE_KEY", field: "apiPrivateKey", readBy: "Python SDK tests, Rust and Ruby SDK examples, `tk`" },
  { name: "TURNKEY_AUTH_PROXY_URL", field: "proxyUrl", readBy: "`emulator conformance`" },
  { name: "TURNKEY_AUTH_PROXY_CONFIG_ID", field: "authProxyConfigId", readBy: "`emulator conformance`" },
  { name: "TURNKEY_EMULATOR_ORG_ID", field: "organizationId", readBy: "the trust preload (turnkey-emulator/trust): which fixture's keys to trust" },
  { name: "BASE_URL", field: "url", readBy: "JavaScript SDK examples" },
  { name: "ORGANIZATION_ID", field: "organizationId", readBy: "JavaScript SDK examples" },
  { name: "API_PUBLIC_KEY", field: "apiPublicKey", readBy: "JavaScript SDK examples" },
  { name: "API_PRIVATE_KEY", field: "apiPrivateKey", readBy: "JavaScript SDK examples" },
];

/** The variables that carry `c` (`prefixedOnly`: only the TURNKEY_* names); a field the fixture lacks (null) gives none. */
export function connectionVariables(c: TurnkeyEmulatorConnection, options: { prefixedOnly?: boolean } = {}): [name: string, value: string][] {
  return VARIABLES.filter((v) => !options.prefixedOnly || v.name.startsWith("TURNKEY_")).flatMap(({ name, field }) => (c[field] === null ? [] : [[name, c[field]] as [string, string]]));
}

/** The connection the TURNKEY_* variables of `env` carry (what the jest global setup set); throws naming what is missing. */
export function connectionFromEnv(env: Record<string, string | undefined> = process.env): TurnkeyEmulatorConnection {
  const read = (name: string) => env[name] || null;
  const required = (name: string) => {
    const value = read(name);
    if (!value) throw new Error(`${name} is not set: is the emulator's jest global setup (turnkey-emulator/jest/global-setup) in the jest config?`);
    return value;
  };
  return {
    url: required("TURNKEY_API_BASE_URL"),
    proxyUrl: required("TURNKEY_AUTH_PROXY_URL"),
    authProxyConfigId: read("TURNKEY_AUTH_PROXY_CONFIG_ID"),
    organizationId: required("TURNKEY_ORGANIZATION_ID"),
    rootUserId: required("TURNKEY_USER_ID"),
    apiPublicKey: read("TURNKEY_API_PUBLIC_KEY"),
    apiPrivateKey: read("TURNKEY_API_PRIVATE_KEY"),
    walletId: null,
  };
}

/** `value` as one word of a POSIX shell: in single quotes, each `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `export NAME='value'` lines, for `eval "$(emulator env)"` in sh, bash and zsh. */
export function shellExports(vars: [string, string][]): string {
  return vars.map(([name, value]) => `export ${name}=${shellQuote(value)}\n`).join("");
}

const BARE = /^[A-Za-z0-9_./:@+,-]*$/;

/**
 * `NAME=value` lines: a value of URL, id and hex characters bare (what GitHub's $GITHUB_ENV and
 * docker's --env-file take literally), any other in single quotes (dotenv, python-dotenv, dotenvy
 * and Ruby's dotenv take those literally). A value no quoting carries through all of them (a
 * quote or a line break) is refused rather than written so that some reader misreads it.
 */
export function dotenv(vars: [string, string][]): string {
  return vars
    .map(([name, value]) => {
      if (BARE.test(value)) return `${name}=${value}\n`;
      if (/['\r\n]/.test(value)) throw new Error(`${name}: a value with a quote or a line break has no dotenv form every reader agrees on`);
      return `${name}='${value}'\n`;
    })
    .join("");
}
