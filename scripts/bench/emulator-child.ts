/**
 * An emulator in a child process, driven over IPC, so that the figures a benchmark takes are
 * the server's alone (its CPU is not shared with the load generator's event loop, its RSS is
 * its own), as when a test suite talks to `npx emulator start` or to a globalSetup instance.
 *
 * Beside the emulator the child runs two baselines on their own ports: a bare `node:http`
 * handler and an express app with the same raw-body capture and JSON answer the emulator's
 * pipeline uses, so that express's own cost is measured in the same process and run.
 *
 * `BENCH_CHILD_PROFILE=<dir>` starts the child with `--cpu-prof` into that directory.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import http from "node:http";
import { createHash, randomBytes, randomUUID } from "node:crypto";

export type ChildInfo = { url: string; bareUrl: string; expressUrl: string; essentialUrl: string; organizationId: string; apiPublicKey: string; apiPrivateKey: string };
export type Memory = { rss: number; heapUsed: number };

type Command =
  | { kind: "memory"; gc?: boolean }
  | { kind: "reset" }
  | { kind: "idle"; ms: number }
  | { kind: "cpu" }
  | { kind: "busy" }
  | { kind: "cloneActivities"; orgId: string; count: number }
  | { kind: "cloneSubOrganization"; templateId: string; count: number }
  | { kind: "count"; table: string }
  | { kind: "stop" };

// ---------------------------------------------------------------- child side

if (process.env.BENCH_EMULATOR_CHILD === "1") {
  const { startEmulator } = await import("../../emulator/index.js");
  const express = (await import("express")).default;
  const emu = await startEmulator({ port: 0, db: process.env.BENCH_DB || undefined, validateResponses: false });
  let db = emu.runtime.store.db; // replaced by a reset (a fresh in-memory database)
  const payload = JSON.stringify({ organizationId: emu.info.organizationId, organizationName: "bench", userId: randomUUID(), username: "bench" });

  const bare = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }).end(payload);
    });
  });
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.post("/public/v1/query/whoami", express.raw({ type: () => true, limit: 10 * 1024 * 1024 }), (req, res) => {
    JSON.parse((req.body as Buffer).toString("utf8"));
    res.status(200).json(JSON.parse(payload));
  });
  /**
   * The least any server must do for a stamped sign_raw_payload, on node:http: read the body,
   * verify the stamp (the emulator's own check, OpenSSL), sign the payload's keccak256 digest
   * (libsecp256k1, as the emulator does), record one row in SQLite and answer an activity of the
   * emulator's shape. What a client of it reaches bounds what any implementation could.
   */
  const essential = await (async () => {
    const [{ parseApiKeyStamp, verifyApiKeyStamp }, { signRecoverableSecp256k1 }, { keccak_256 }, Database] = await Promise.all([
      import("../../emulator/core/auth/stamp.js"),
      import("../../emulator/curves/secp256k1.js"),
      import("@noble/hashes/sha3.js"),
      import("better-sqlite3").then((m) => m.default),
    ]);
    const edb = new Database("");
    edb.exec("CREATE TABLE activities (id TEXT PRIMARY KEY, org_id TEXT NOT NULL, fingerprint TEXT NOT NULL UNIQUE, intent TEXT NOT NULL, result TEXT NOT NULL, created_at INTEGER NOT NULL)");
    const insert = edb.prepare("INSERT INTO activities VALUES (?, ?, ?, ?, ?, ?)");
    const record = edb.transaction((...row: unknown[]) => insert.run(...row));
    const priv = randomBytes(32);
    return http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks);
        const stamp = parseApiKeyStamp(String(req.headers["x-stamp"]));
        if (!verifyApiKeyStamp(stamp, raw)) return res.writeHead(401).end();
        const body = JSON.parse(raw.toString("utf8")) as { type: string; organizationId: string; timestampMs: string; parameters: { payload: string } };
        const sig = signRecoverableSecp256k1(keccak_256(Buffer.from(body.parameters.payload.slice(2), "hex")), priv);
        const id = randomUUID();
        const now = Date.now();
        const result = { signRawPayloadResult: { r: Buffer.from(sig.r).toString("hex"), s: Buffer.from(sig.s).toString("hex"), v: sig.recovery === 1 ? "01" : "00" } };
        const fingerprint = `sha256:${createHash("sha256").update(raw).digest("hex")}`;
        record(id, body.organizationId, fingerprint, JSON.stringify(body.parameters), JSON.stringify(result), now);
        const time = { seconds: String(Math.floor(now / 1000)), nanos: "0" };
        const text = JSON.stringify({
          activity: { id, organizationId: body.organizationId, status: "ACTIVITY_STATUS_COMPLETED", type: body.type, intent: { signRawPayloadIntentV2: body.parameters }, result, votes: [], appProofs: [], fingerprint, canApprove: false, canReject: false, createdAt: time, updatedAt: time, failure: null },
        });
        res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) }).end(text);
      });
    });
  })();
  const listen = (s: http.Server) => new Promise<string>((resolve) => s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(s.address() as { port: number }).port}`)));
  const bareUrl = await listen(bare);
  const expressUrl = await listen(http.createServer(app));
  const essentialUrl = await listen(essential);

  const memory = async (gc?: boolean): Promise<Memory> => {
    const run = (globalThis as { gc?: () => void }).gc;
    if (gc && run) {
      run();
      await new Promise((r) => setTimeout(r, 100));
      run();
    }
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed };
  };
  const columns = (table: string) => (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
  const insertInto = (table: string, cols: string[]) => db.prepare(`INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);

  /** Copies of the organization's newest activity (with its policy evaluation): new ids and fingerprints, same content. */
  const cloneActivities = (orgId: string, count: number) => {
    const a = db.prepare("SELECT * FROM activities WHERE org_id = ? ORDER BY seq DESC LIMIT 1").get(orgId) as Record<string, unknown>;
    // Older schemas kept policy evaluations in a table of their own; newer ones in the activity row.
    const evaluationsTable = columns("policy_evaluations").length > 0;
    const e = evaluationsTable ? (db.prepare("SELECT * FROM policy_evaluations WHERE activity_id = ?").get(a.id) as Record<string, unknown> | undefined) : undefined;
    const aCols = columns("activities").filter((c) => c !== "seq");
    const insA = insertInto("activities", aCols);
    const eCols = evaluationsTable ? columns("policy_evaluations") : [];
    const insE = evaluationsTable ? insertInto("policy_evaluations", eCols) : undefined;
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = randomUUID();
        insA.run(...aCols.map((c) => (c === "id" ? id : c === "fingerprint" ? `sha256:${randomBytes(32).toString("hex")}` : a[c])));
        if (e) insE!.run(...eCols.map((c) => (c === "id" ? randomUUID() : c === "activity_id" ? id : e[c])));
      }
    })();
  };

  /**
   * Copies of a sub-organization made over the API (its organization, users, wallets and
   * accounts, policies, settings...): every id of the template is replaced by a fresh one and
   * every account address by a distinct random one, so that lookups by address or id see as
   * many distinct values as real sub-organizations would give them.
   */
  const cloneSubOrganization = (templateId: string, count: number) => {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((t) => t.name);
    const template: { table: string; cols: string[]; rows: Record<string, unknown>[] }[] = [];
    const ids = new Set<string>([templateId]);
    for (const table of tables) {
      const cols = columns(table).filter((c) => c !== "seq");
      let rows: Record<string, unknown>[] = [];
      if (table === "organizations") rows = db.prepare("SELECT * FROM organizations WHERE id = ?").all(templateId) as Record<string, unknown>[];
      else if (cols.includes("org_id")) rows = db.prepare(`SELECT * FROM ${table} WHERE org_id = ?`).all(templateId) as Record<string, unknown>[];
      if (!rows.length) continue;
      for (const r of rows) if (typeof r.id === "string") ids.add(r.id);
      template.push({ table, cols, rows });
    }
    const tagIds = template.find((t) => t.table === "tags")?.rows.map((r) => r.id as string) ?? [];
    const members = tagIds.flatMap((id) => db.prepare("SELECT * FROM tag_members WHERE tag_id = ?").all(id) as Record<string, unknown>[]);
    if (members.length) template.push({ table: "tag_members", cols: ["tag_id", "member_id"], rows: members });
    const statements = new Map(template.map((t) => [t.table, insertInto(t.table, t.cols)]));
    const idPattern = new RegExp([...ids].join("|"), "g");
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const map = new Map([...ids].map((id) => [id, randomUUID()]));
        const addresses = new Map<string, string>();
        const renew = (v: unknown) => (typeof v === "string" ? v.replace(idPattern, (id) => map.get(id)!) : v);
        for (const t of template) {
          for (const r of t.rows) {
            const values = t.cols.map((c) => {
              if (c === "address" && typeof r[c] === "string") {
                const old = r[c] as string;
                if (!addresses.has(old)) addresses.set(old, old.startsWith("0x") ? `0x${randomBytes(20).toString("hex")}` : randomBytes(20).toString("hex"));
                return addresses.get(old);
              }
              if (c === "name" && t.table === "organizations") return `${r[c]} ${i}`;
              // A distinct (never used) API key each: one public key in thousands of organizations is not what this measures.
              if (c === "public_key" && t.table === "api_keys") return `02${randomBytes(32).toString("hex")}`;
              return renew(r[c]);
            });
            statements.get(t.table)!.run(...values);
          }
        }
      }
    })();
  };

  const handle = async (cmd: Command): Promise<unknown> => {
    switch (cmd.kind) {
      case "memory":
        return memory(cmd.gc);
      case "cpu": {
        const c = process.cpuUsage();
        return c.user + c.system;
      }
      case "busy":
        return (await import("node:perf_hooks")).performance.eventLoopUtilization().active * 1000;
      case "reset":
        emu.reset();
        db = emu.runtime.store.db;
        return memory(true);
      case "idle":
        // Nothing to do for a while, as a test run between two suites: V8's memory reducer acts on an idle process.
        await new Promise((r) => setTimeout(r, cmd.ms));
        return memory(true);
      case "cloneActivities":
        return cloneActivities(cmd.orgId, cmd.count);
      case "cloneSubOrganization":
        return cloneSubOrganization(cmd.templateId, cmd.count);
      case "count":
        return (db.prepare(`SELECT COUNT(*) AS n FROM ${cmd.table}`).get() as { n: number }).n;
      case "stop":
        await emu.stop();
        bare.close();
        essential.close();
        setImmediate(() => process.exit(0));
        return null;
    }
  };
  process.on("message", async (m: { id: number; cmd: Command }) => {
    try {
      process.send!({ id: m.id, ok: true, value: await handle(m.cmd) });
    } catch (e) {
      process.send!({ id: m.id, ok: false, error: String((e as Error).stack ?? e) });
    }
  });
  process.send!({ id: 0, ok: true, value: { url: emu.url, bareUrl, expressUrl, essentialUrl, organizationId: emu.info.organizationId, apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey! } satisfies ChildInfo });
}

// ---------------------------------------------------------------- parent side

let bundle: Promise<string> | undefined;

/**
 * This file and the emulator sources bundled like the package's entries (scripts/bundle.ts
 * SHIPPED: the same externals and plugins; ES modules here, where the entries are one CommonJS
 * file run through a code cache, which only start-up sees), so that the child runs on plain node what users run:
 * no loader thread whose heap would count in its RSS, always the current sources. Written
 * under node_modules/.cache, inside the package, so that the emulator finds its package root.
 */
function bundled(): Promise<string> {
  return (bundle ??= (async () => {
    const [{ build }, { SHIPPED }] = await Promise.all([import("esbuild"), import("../bundle.js")]);
    // One folder per source tree (an A/B run bundles two trees side by side).
    const tree = createHash("sha256").update(fileURLToPath(import.meta.url)).digest("hex").slice(0, 12);
    const outdir = join(fileURLToPath(new URL("../../node_modules/.cache/bench/", import.meta.url)), `emulator-child-${tree}`);
    await build({ ...SHIPPED, external: [...SHIPPED.external!, "esbuild"], entryPoints: { "emulator-child": fileURLToPath(import.meta.url) }, outdir, sourcemap: process.env.BENCH_CHILD_PROFILE ? "inline" : false, logLevel: "error" });
    return join(outdir, "emulator-child.js");
  })());
}

export class EmulatorChild {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private constructor(
    private readonly child: ChildProcess,
    readonly info: ChildInfo,
  ) {
    child.on("message", (m: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.ok) w?.resolve(m.value);
      else w?.reject(new Error(m.error));
    });
  }

  static async start(opts: { db?: string } = {}): Promise<EmulatorChild> {
    const profile = process.env.BENCH_CHILD_PROFILE;
    const child = fork(await bundled(), [], {
      execArgv: ["--expose-gc", ...(profile ? ["--cpu-prof", "--cpu-prof-dir", profile] : [])],
      env: { ...process.env, BENCH_EMULATOR_CHILD: "1", BENCH_DB: opts.db ?? "" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const info = await new Promise<ChildInfo>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`emulator child exited with ${code}`)));
      child.once("message", (m: { value: ChildInfo }) => resolve(m.value));
    });
    child.removeAllListeners("exit");
    return new EmulatorChild(child, info);
  }

  ask<T>(cmd: Command): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, cmd });
    });
  }

  /** The child's CPU time so far (user + system), in microseconds. */
  cpu(): Promise<number> {
    return this.ask({ kind: "cpu" });
  }

  /** The child's process id (its main thread's id too, on Linux). */
  get pid(): number {
    return this.child.pid!;
  }

  /** Time the child's main thread has spent busy (not waiting for I/O) so far, in microseconds. */
  busy(): Promise<number> {
    return this.ask({ kind: "busy" });
  }

  memory(gc = false): Promise<Memory> {
    return this.ask({ kind: "memory", gc });
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    await this.ask({ kind: "stop" });
    await exited;
  }
}
