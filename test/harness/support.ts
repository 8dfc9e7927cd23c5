/** Harness test support: an emulator in its own process, and an HTTP proxy that alters responses. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TargetConfig } from "../../contracts/harness/index.js";
import { packageRoot } from "../../emulator/core/package-root.js";

export type ProcessEmulator = { target: TargetConfig; child: ChildProcess; stop(): Promise<void> };

/**
 * The emulator's CLI as one ES module, bundled with esbuild (its own sources only; packages
 * stay external and load from node_modules), written under node_modules/.cache so
 * packageRoot() still finds the project. Starting it takes well under a second, where
 * `node --import tsx emulator/cli.ts` spends ~5 s in the loader hooks on this machine.
 * Falls back to tsx if esbuild (a dependency of tsx and vite) cannot be loaded.
 */
async function cliCommand(): Promise<{ args: string[]; cleanup(): void }> {
  const root = packageRoot();
  try {
    const esbuild = await import("esbuild");
    const dir = mkdtempSync(join(root, "node_modules", ".cache", "conformance-emulator-"));
    const outfile = join(dir, "cli.mjs");
    await esbuild.build({ entryPoints: [join(root, "emulator", "cli.ts")], bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", outfile, logLevel: "silent" });
    return { args: [outfile], cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch {
    return { args: ["--import", "tsx", "emulator/cli.ts"], cleanup: () => {} };
  }
}

/** The emulator CLI's `start --port 0` in its own process, credentials read from its banner. */
export async function startProcessEmulator(): Promise<ProcessEmulator> {
  mkdirSync(join(packageRoot(), "node_modules", ".cache"), { recursive: true });
  const cli = await cliCommand();
  const child = spawn(process.execPath, [...cli.args, "start", "--port", "0"], { cwd: packageRoot(), stdio: ["ignore", "pipe", "pipe"] });
  child.once("exit", () => cli.cleanup());
  let out = "";
  let err = "";
  child.stderr!.on("data", (c) => (err += c));
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator process did not start in time: ${err}`)), 20_000);
    child.stdout!.on("data", (c) => {
      out += c;
      if (/API private key\s+\S+/.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.once("exit", (code) => reject(new Error(`emulator process exited with ${code}: ${err}`)));
  });
  const grab = (re: RegExp) => re.exec(banner)?.[1] ?? "";
  const target: TargetConfig = {
    url: grab(/Coordinator API\s+(http:\/\/\S+)/),
    proxyUrl: grab(/Auth proxy\s+(http:\/\/\S+)/),
    proxyConfigId: grab(/X-Auth-Proxy-Config-ID ([0-9a-f-]{36})/) || undefined,
    organizationId: grab(/Organization\s+([0-9a-f-]{36})/),
    apiPublicKey: grab(/API public key\s+([0-9a-f]+)/),
    apiPrivateKey: grab(/API private key\s+([0-9a-f]+)/),
    label: "emulator process",
  };
  return {
    target,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export type Alteration = (path: string, status: number, body: any) => { status: number; body: any };

/** Forwards every request to `upstream` and lets `alter` change the JSON responses. */
export async function startAlteringProxy(upstream: string, alter: () => Alteration | undefined): Promise<{ url: string; stop(): Promise<void> }> {
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && !["host", "content-length", "connection"].includes(k)) headers[k] = v;
    const up = await fetch(upstream + req.url, { method: req.method, headers, body: req.method === "GET" ? undefined : Buffer.concat(chunks) });
    let status = up.status;
    let text = await up.text();
    const fn = alter();
    if (fn) {
      const altered = fn(req.url ?? "", status, JSON.parse(text));
      status = altered.status;
      text = JSON.stringify(altered.body);
    }
    res.writeHead(status, { "content-type": "application/json" }).end(text);
  };
  // A failed forward answers 502 instead of leaving an unhandled rejection.
  const server: Server = createServer((req, res) => {
    forward(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(err));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
