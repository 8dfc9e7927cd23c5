/** Runs the scripts in fixtures/ as an application would: a child `node`, optionally with the trust preload. */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunningEmulator } from "../../emulator/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX_CLI = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist", "cli.mjs");

/** The Node that runs the scripts: this one, or EMULATOR_TEST_NODE (another version's binary, to check the preload there). */
const NODE = process.env.EMULATOR_TEST_NODE || process.execPath;

export type ScriptRun = { code: number | null; stdout: string; stderr: string };

/** How the preload is given: on the command line, through NODE_OPTIONS (the documented way), or not at all. */
export type Preload = "--import" | "NODE_OPTIONS" | "none";

/**
 * Runs fixtures/<script> with `node`, or with tsx (`runner: "tsx"`) the way the tkhq/sdk examples'
 * `start` script runs them: tsx registers its own module hooks, which the preload must chain with.
 */
export async function runScript(script: string, env: Record<string, string>, preload: Preload, runner: "node" | "tsx" = "node"): Promise<ScriptRun> {
  const base = { ...process.env };
  // Nothing of the test runner's own environment decides what the child trusts.
  for (const k of ["NODE_OPTIONS", "NODE_ENV", "TURNKEY_EMULATOR_ORG_ID", "EMULATOR_TRUST_FIXTURE", "EMULATOR_TRUST_FORCE", "EMULATOR_TRUST_DEBUG"]) delete base[k];
  const args = preload === "--import" ? ["--import", "turnkey-emulator/trust"] : [];
  const childEnv: Record<string, string | undefined> = { ...base, ...(preload === "NODE_OPTIONS" ? { NODE_OPTIONS: "--import turnkey-emulator/trust" } : {}), ...env };
  // The working directory is the package root, so `turnkey-emulator/trust` resolves by self-reference,
  // as it resolves from node_modules in an application.
  const file = fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url));
  const command = runner === "tsx" ? [...args, TSX_CLI, file] : [...args, file];
  const child = spawn(NODE, command, { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  return { code, stdout, stderr };
}

/** The variables the tkhq/sdk examples read from .env.local, for an emulator instance. */
export function exampleEnv(emu: RunningEmulator): Record<string, string> {
  return {
    BASE_URL: emu.url,
    API_PUBLIC_KEY: emu.info.apiPublicKey!,
    API_PRIVATE_KEY: emu.info.apiPrivateKey!,
    ORGANIZATION_ID: emu.info.organizationId,
    USER_ID: emu.info.rootUserId,
  };
}
