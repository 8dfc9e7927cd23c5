/**
 * `emulator conformance`: runs the contract scenarios against the embedded emulator, an
 * emulator or deployment by URL, or two targets side by side (--compare), and reports
 * every divergence. Exit code 0: all passed / no differences; 1: failures or
 * differences; 2: usage or scenario file errors.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  compareTargets,
  computeCoverage,
  formatCompareSummary,
  formatCoverage,
  formatRunSummary,
  junitXml,
  loadScenarios,
  reportJson,
  runScenarios,
  ScenarioLoadError,
  type LoadedScenario,
  type RunOptions,
  type RunReport,
  type TargetConfig,
  type TargetSpec,
} from "../contracts/harness/index.js";
import { registry } from "./families.js";
import { packageRoot } from "./core/package-root.js";

const { activities, endpoints, queries } = registry;

export const CONFORMANCE_USAGE = `usage: emulator conformance [options] [SCENARIO_FILE_OR_DIR ...]

Runs contract scenarios (default: the package's scenarios/ directory) and reports every
divergence from the contract and from the scenarios' expectations.

Target (default: an embedded emulator started in-process):
  --target URL|embedded       coordinator API base URL            env TURNKEY_API_BASE_URL
  --organization-id ID        organization of the API key         env TURNKEY_ORGANIZATION_ID
  --api-public-key HEX        a root user's API key (P-256)        env TURNKEY_API_PUBLIC_KEY
  --api-private-key HEX                                            env TURNKEY_API_PRIVATE_KEY
  --proxy-url URL             auth proxy base URL                  env TURNKEY_AUTH_PROXY_URL
  --proxy-config-id ID        auth proxy config id                 env TURNKEY_AUTH_PROXY_CONFIG_ID

Comparing two targets (structural differences: fields, types, enums, statuses, codes):
  --compare A B               each "embedded" or a URL
  --a-organization-id ID, --a-api-public-key HEX, --a-api-private-key HEX,
  --a-proxy-url URL, --a-proxy-config-id ID   (and the same with --b-) credentials of a URL side
  --targets FILE              JSON {"a": {url, organizationId, apiPublicKey, apiPrivateKey,
                              proxyUrl?, proxyConfigId?}, "b": {...}}; a URL side without
                              --a-/--b- flags or a file entry uses the single-target flags/env

Run:
  --scope auto|suborg|root    where scenarios run (default auto: a fresh sub-organization per
                              scenario on URL targets, the root organization when embedded)
  --rate N                    requests per second (default 4 for URL targets; 0 = unpaced)
  --max-retries N             retries of HTTP 429, with exponential backoff (default 5)
  --filter REGEX              only scenarios whose name matches
  --email-domain DOMAIN       domain of generated emails (default example.com)
  --strict                    invariant checks that are not available count as failures

Output:
  --json FILE                 structured report (--include-responses adds response bodies)
  --junit FILE                JUnit XML
  --coverage                  which routed operations the scenarios exercise (and which the
                              emulator implements)
  -h, --help`;

type Flags = Record<string, string | boolean | undefined>;

const CRED_FLAGS = ["organization-id", "api-public-key", "api-private-key", "proxy-url", "proxy-config-id"] as const;

function credentialsFrom(get: (name: (typeof CRED_FLAGS)[number]) => string | undefined): Partial<TargetConfig> {
  return {
    organizationId: get("organization-id"),
    apiPublicKey: get("api-public-key"),
    apiPrivateKey: get("api-private-key"),
    proxyUrl: get("proxy-url"),
    proxyConfigId: get("proxy-config-id"),
  };
}

const ENV: Record<(typeof CRED_FLAGS)[number], string> = {
  "organization-id": "TURNKEY_ORGANIZATION_ID",
  "api-public-key": "TURNKEY_API_PUBLIC_KEY",
  "api-private-key": "TURNKEY_API_PRIVATE_KEY",
  "proxy-url": "TURNKEY_AUTH_PROXY_URL",
  "proxy-config-id": "TURNKEY_AUTH_PROXY_CONFIG_ID",
};

class UsageError extends Error {}

function completeTarget(url: string, ...sources: Partial<TargetConfig>[]): TargetSpec {
  if (url === "embedded") return "embedded";
  if (!/^https?:\/\//.test(url)) throw new UsageError(`target must be "embedded" or an http(s) URL, got ${url}`);
  const pick = <K extends keyof TargetConfig>(k: K) => sources.map((s) => s[k]).find((v) => v !== undefined && v !== "");
  const t: TargetConfig = {
    url: url.replace(/\/$/, ""),
    organizationId: pick("organizationId") as string,
    apiPublicKey: pick("apiPublicKey") as string,
    apiPrivateKey: pick("apiPrivateKey") as string,
    proxyUrl: pick("proxyUrl") as string | undefined,
    proxyConfigId: pick("proxyConfigId") as string | undefined,
    label: url,
  };
  const missing = (["organizationId", "apiPublicKey", "apiPrivateKey"] as const).filter((k) => !t[k]);
  if (missing.length) throw new UsageError(`target ${url} needs ${missing.join(", ")} (flags --organization-id/--api-public-key/--api-private-key or the TURNKEY_* variables)`);
  return t;
}

/** Operations the emulator implements, from its own handler tables. */
/** Every operation the emulator implements (both surfaces), as coverage labels (`submit create_wallet`). */
export function emulatedOperations(): Set<string> {
  return new Set([
    ...[...activities.keys()].map((n) => `submit ${n}`),
    ...[...queries.keys()].map((n) => `query ${n}`),
    ...[...endpoints.keys()].map((n) => `proxy ${n}`),
  ]);
}

export async function conformanceCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (s: string) => void = (s) => console.log(s)): Promise<number> {
  let compare: [string, string] | undefined;
  const args = [...argv];
  const ci = args.indexOf("--compare");
  if (ci >= 0) {
    const pair = args.splice(ci, 3).slice(1);
    if (pair.length !== 2 || pair.some((p) => p.startsWith("--"))) {
      console.error(`--compare needs two targets (embedded or URLs)\n\n${CONFORMANCE_USAGE}`);
      return 2;
    }
    compare = [pair[0]!, pair[1]!];
  }
  const str = { type: "string" } as const;
  let values: Flags;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        target: str,
        ...Object.fromEntries(CRED_FLAGS.flatMap((f) => [[f, str], [`a-${f}`, str], [`b-${f}`, str]])),
        targets: str,
        scope: str,
        rate: str,
        "max-retries": str,
        filter: str,
        "email-domain": str,
        json: str,
        junit: str,
        coverage: { type: "boolean" },
        strict: { type: "boolean" },
        "include-responses": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${CONFORMANCE_USAGE}`);
    return 2;
  }
  if (values.help) {
    out(CONFORMANCE_USAGE);
    return 0;
  }
  const flag = (name: string): string | undefined => values[name] as string | undefined;

  let options: Omit<RunOptions, "target">;
  let single: TargetSpec | undefined;
  let pair: [TargetSpec, TargetSpec] | undefined;
  try {
    const scope = flag("scope");
    if (scope && !["auto", "suborg", "root"].includes(scope)) throw new UsageError(`--scope must be auto, suborg or root, got ${scope}`);
    const num = (name: string): number | undefined => {
      const v = flag(name);
      if (v === undefined) return undefined;
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a number >= 0, got ${v}`);
      return n;
    };
    const paths = positionals.length ? positionals : [join(packageRoot(), "scenarios")];
    options = {
      scenarios: loadScenarios(paths),
      filter: flag("filter") ? new RegExp(flag("filter")!) : undefined,
      scope: scope as RunOptions["scope"],
      requestsPerSecond: num("rate"),
      maxRetries: num("max-retries"),
      emailDomain: flag("email-domain"),
    };
    const general = { ...credentialsFrom((f) => env[ENV[f]]), ...Object.fromEntries(Object.entries(credentialsFrom((f) => flag(f))).filter(([, v]) => v !== undefined)) };
    if (compare) {
      let file: { a?: Partial<TargetConfig>; b?: Partial<TargetConfig> } = {};
      if (flag("targets")) {
        try {
          file = JSON.parse(readFileSync(flag("targets")!, "utf8"));
        } catch (e) {
          throw new UsageError(`--targets ${flag("targets")}: ${(e as Error).message}`);
        }
      }
      const side = (p: "a" | "b", url: string) => completeTarget(url, credentialsFrom((f) => flag(`${p}-${f}`)), file[p] ?? {}, general);
      pair = [side("a", compare[0]), side("b", compare[1])];
    } else {
      const url = flag("target") ?? env.TURNKEY_API_BASE_URL ?? "embedded";
      single = completeTarget(url, general);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ScenarioLoadError || e instanceof SyntaxError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }

  const runs: RunReport[] = [];
  let failed: boolean;
  if (pair) {
    const report = await compareTargets({ ...options, a: pair[0], b: pair[1] });
    runs.push(report.a, report.b);
    out(formatCompareSummary(report));
    if (flag("json")) writeFileSync(flag("json")!, reportJson(report, !!values["include-responses"]));
    if (flag("junit")) writeFileSync(flag("junit")!, junitXml(runs, report.differences));
    failed = !report.ok || !report.a.ok || !report.b.ok;
  } else {
    const report = await runScenarios({ ...options, target: single });
    runs.push(report);
    out(formatRunSummary(report));
    if (flag("json")) writeFileSync(flag("json")!, reportJson(report, !!values["include-responses"]));
    if (flag("junit")) writeFileSync(flag("junit")!, junitXml(runs));
    failed = !report.ok;
  }
  if (values.strict && runs.some((r) => r.summary.invariantsUnavailable > 0)) {
    out("Strict: some invariant checks were not available.");
    failed = true;
  }
  if (values.coverage) {
    const embedded = single === "embedded" || pair?.includes("embedded");
    const scenarios = (options.scenarios as LoadedScenario[]).filter((s) => !options.filter || options.filter.test(s.name));
    out("\n" + formatCoverage(computeCoverage(scenarios, runs, embedded ? emulatedOperations() : undefined)));
  }
  return failed ? 1 : 0;
}
