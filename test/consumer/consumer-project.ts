/**
 * A temporary project that uses the emulator the way a consumer does: `turnkey-emulator` in
 * its node_modules (a link to this checkout, so the package's exports map and built dist/ are
 * what it resolves), beside the few packages its tests import (links to this checkout's copies).
 * Its tools run as child processes, from its own directory.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");

/** Fails, naming the fix, when the package's built files that `paths` name are missing (CI builds them in `npm ci`). */
export function requireBuilt(...paths: string[]): void {
  const missing = paths.filter((p) => !existsSync(join(ROOT, p)));
  if (missing.length) throw new Error(`${missing.join(", ")} not built: run \`npm run build\` first`);
}

export type ConsumerProject = { dir: string; remove(): void };

export function consumerProject(files: Record<string, string>, packages: string[] = []): ConsumerProject {
  const dir = mkdtempSync(join(tmpdir(), "turnkey-emulator-consumer-"));
  const link = (name: string, target: string) => {
    const at = join(dir, "node_modules", name);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(target, at, "dir");
  };
  link("turnkey-emulator", ROOT);
  for (const name of packages) link(name, realpathSync(join(ROOT, "node_modules", name)));
  for (const [name, text] of Object.entries({ "package.json": JSON.stringify({ name: "consumer", private: true, type: "module" }), ...files })) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** This process's environment without what the running vitest set for its own workers (a child vitest must not take itself for one), and without colours. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_OPTIONS$|FORCE_COLOR$|TURNKEY_)/.test(k)));
  return { ...env, NO_COLOR: "1", ...extra };
}

export type Run = { code: number | null; stdout: string; stderr: string };

export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env ?? childEnv(), timeout: options.timeoutMs ?? 60_000, encoding: "utf8" }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Whether nothing listens at `url` any more (the connection is refused). */
export async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
  }
}
