/**
 * The options of `emulator start`, in one table: each entry gives the flag (its key), its
 * environment variable (`EMULATOR_` and the flag's name in capitals, `-` as `_`: `--allow-host`
 * is `EMULATOR_ALLOW_HOST`), its line in `--help` and how parseArgs reads it. Adding an entry
 * adds all three; cli.ts then reads its value from `readStartOptions(...).values`.
 *
 * A container is configured through its environment (`docker run -e EMULATOR_DB=/data/e.db`,
 * a compose service's `environment:`), so every flag has its variable. A flag given on the
 * command line wins over its variable. A variable's value is what the flag would take: a
 * repeatable flag's variable holds its values separated by commas or spaces, a switch's is
 * 1/true/yes/on or 0/false/no/off, a flag whose value is optional (`--rate-limit`) takes
 * `true` for the bare flag. An empty variable is not set.
 *
 * Kept free of the emulator's modules: `--help` (cli-usage.ts) is answered before anything loads.
 */
import { parseArgs } from "node:util";

export type StartOption = {
  /** The value's name in --help; none for a switch (a boolean flag). */
  value?: string;
  /** Repeatable: every value is kept, in order. */
  multiple?: true;
  /** Given bare (no value follows), it reads as "true" (`--rate-limit`, `--rate-limit 1`). */
  optionalValue?: true;
  default?: string;
  /** Its description in --help (wrapped there). */
  help: string;
};

export const START_OPTIONS = {
  port: { value: "N", default: "8787", help: "port to listen on (default 8787; 0 picks a free port)" },
  host: { value: "H", default: "127.0.0.1", help: "interface to listen on (default 127.0.0.1; 0.0.0.0 for a container network)" },
  "allow-host": {
    value: "NAME",
    multiple: true,
    help: "answer the control API, UI and frames on this host name too (beside loopback names and IP addresses), e.g. a compose service; repeatable; .example.test allows its subdomains",
  },
  db: { value: "FILE", help: "keep state in this SQLite file (default: in memory)" },
  state: { value: "FILE", help: "load this state file at start (GET /emulator/v1/state's format)" },
  "export-on-exit": { value: "FILE", help: "write the state to FILE when stopped (SIGINT/SIGTERM)" },
  log: { help: "print one line per request (method, path, status, latency, org, caller)" },
  "rate-limit": {
    value: "N",
    optionalValue: true,
    help: "enforce the service's rate limits: 10 requests per second per organization, and with N a plan's N per second for an organization and its sub-organizations together (1: the free plan); 10 per second on eth_send_transaction, sol_send_transaction, get_wallet_address_balances",
  },
  "trust-proxy": { help: "take the client address for IP allowlists from X-Forwarded-For (only behind a proxy you run; otherwise the TCP peer address)" },
  fixtures: { value: "FILE", help: "seed state (default: the project's turnkey-emulator.jsonc when there is one (emulator init writes it), else the package's fixtures/default.json)" },
  chain: { value: "C=URL", multiple: true, help: "serve chain C (a caip2, e.g. eip155:1) from the node at URL instead of the embedded one; repeatable" },
  "webhook-allow-host": {
    value: "H",
    multiple: true,
    help: "accept webhook URLs on host H (a name or IP literal) over http, as localhost is (e.g. a compose service; the real service refuses them); repeatable",
  },
  "webhook-retry-delays": {
    value: "MS,MS,...",
    help: "emulated-time delays before each retry of a failed webhook delivery (default 5000,30000,120000,600000,1800000; none: no retries)",
  },
  seed: { value: "TEXT", help: "draw every random value (ids, mnemonics, keys, OTP codes, the enclave's ephemeral keys, ...) from TEXT: the same requests give the same answers" },
  clock: { value: "TIME", help: "start the emulated clock at TIME (ISO 8601 such as 2030-01-01T00:00:00Z, or ms since the epoch); the fixture's records are dated then" },
  "clock-mode": { value: "M", help: "frozen (default: time stands still unless moved with POST /emulator/v1/clock) or ticking (runs from TIME)" },
  "coverage-out": { value: "FILE", help: "at exit, write the coverage report (operations, versions, outcomes, policies, operations never called) to FILE and a summary to FILE's .txt" },
} as const satisfies Record<string, StartOption>;

export type StartOptionName = keyof typeof START_OPTIONS;

type ValueOf<O> = O extends { value: string } ? (O extends { multiple: true } ? string[] : string) : boolean;

type Entry<K extends StartOptionName> = (typeof START_OPTIONS)[K];

/** The options' values, each from its flag, its variable or its default; undefined where none is given. */
export type StartValues = { [K in StartOptionName]: Entry<K> extends { default: string } ? ValueOf<Entry<K>> : ValueOf<Entry<K>> | undefined };

/** Where a value came from. */
export type StartSource = "flag" | "env" | "default";

/** A table of start options: START_OPTIONS, or in a test one with an entry more. */
export type StartOptionTable = Readonly<Record<string, StartOption>>;

/** The environment variable of a start option: `EMULATOR_` and its name in capitals (`allow-host`: `EMULATOR_ALLOW_HOST`). */
export function variableOf(name: string): string {
  return `EMULATOR_${name.toUpperCase().replace(/-/g, "_")}`;
}

const TRUE = new Set(["1", "true", "yes", "on"]);
const FALSE = new Set(["0", "false", "no", "off"]);

/** An option the command line or a variable got wrong; its message names the flag, and the variable when the value came from it. */
export class StartOptionError extends Error {}

export type StartOptions = {
  values: StartValues;
  /** Where each given value came from (absent: not given). */
  sources: Partial<Record<StartOptionName, StartSource>>;
  /** A refusal of the option's value, naming the flag and, when the value came from its variable, the variable and what it held. */
  refusal(name: StartOptionName, message: string): string;
  /** Variables named like a start option's that no option has (a misspelling, most likely). */
  unknownVariables: string[];
};

/**
 * Reads `emulator start`'s arguments (after `start`) and the environment: each option from its
 * flag, else its variable, else its default. Throws StartOptionError for an unknown flag, a
 * missing value, a positional argument or a switch's variable that is neither true nor false.
 */
export function readStartOptions(args: string[], env: NodeJS.ProcessEnv = process.env, table: StartOptionTable = START_OPTIONS): StartOptions {
  const names = Object.keys(table);
  let parsed: Record<string, unknown>;
  try {
    ({ values: parsed } = parseArgs({
      args: withOptionalValues(args, table),
      options: Object.fromEntries(names.map((n) => [n, { type: table[n]!.value ? "string" : "boolean", multiple: !!table[n]!.multiple }])),
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new StartOptionError((e as Error).message);
  }
  const values: Record<string, unknown> = {};
  const sources: Record<string, StartSource> = {};
  const raw: Record<string, string> = {};
  for (const name of names) {
    const option = table[name]!;
    if (parsed[name] !== undefined) {
      values[name] = parsed[name];
      sources[name] = "flag";
      continue;
    }
    const text = env[variableOf(name)]?.trim();
    if (text) {
      values[name] = fromVariable(name, option, text);
      sources[name] = "env";
      raw[name] = text;
      if (values[name] === undefined) delete sources[name];
      continue;
    }
    if (option.default !== undefined) {
      values[name] = option.default;
      sources[name] = "default";
    }
  }
  const known = new Set(names.map(variableOf));
  return {
    values: values as StartValues,
    sources,
    refusal: (name, message) => (sources[name] === "env" ? `${variableOf(name)}=${raw[name]}: ${message}` : message),
    unknownVariables: Object.keys(env)
      .filter((k) => k.startsWith("EMULATOR_") && !known.has(k) && !NOT_START_OPTIONS.test(k))
      .sort(),
  };
}

/** Variables of the EMULATOR_ family read elsewhere (the store, the contract check, the trust preload). */
const NOT_START_OPTIONS = /^EMULATOR_(SEALING_KEY|VALIDATE_RESPONSES|TRUST_[A-Z_]+)$/;

function fromVariable(name: string, option: StartOption, text: string): string | string[] | boolean | undefined {
  if (!option.value) {
    const t = text.toLowerCase();
    if (TRUE.has(t)) return true;
    if (FALSE.has(t)) return false;
    throw new StartOptionError(`${variableOf(name)}=${text}: --${name} is a switch; give 1, true, yes or on (or 0, false, no, off), got ${text}`);
  }
  if (option.multiple) return text.split(/[\s,]+/).filter(Boolean);
  if (option.optionalValue && text.toLowerCase() === "false") return undefined;
  return text;
}

/** A flag whose value is optional, given bare (last, or before another flag), reads as "true". */
function withOptionalValues(args: string[], table: StartOptionTable): string[] {
  const bare = new Set(Object.keys(table).filter((n) => table[n]!.optionalValue).map((n) => `--${n}`));
  return args.map((a, i) => (bare.has(a) && (i + 1 === args.length || args[i + 1]!.startsWith("-")) ? `${a}=true` : a));
}

const WIDTH = 96;
const INDENT = 19;

/** `--help`'s lines for the options: flag and value, the description wrapped, then `[env: EMULATOR_...]`. */
export function startOptionsUsage(table: StartOptionTable = START_OPTIONS): string {
  return Object.entries(table).map(([name, o]) => {
    const flag = `  --${name}${o.value ? (o.optionalValue ? ` [${o.value}]` : ` ${o.value}`) : ""}`;
    const head = flag.length + 1 < INDENT ? flag.padEnd(INDENT) : `${flag}  `;
    return wrap([...o.help.split(/\s+/), `[env: ${variableOf(name)}]`], head, " ".repeat(INDENT));
  }).join("\n");
}

/** Words filled into lines of at most WIDTH characters: the first after `first`, the others after `rest`. */
function wrap(words: string[], first: string, rest: string): string {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  lines.push(line);
  return lines.join("\n");
}
