/** Small HTTP load helpers for the benchmarks: keep-alive POSTs with a fixed concurrency. */
import http from "node:http";
import net from "node:net";
import { percentile } from "./report.js";

export type LoadResult = { requests: number; seconds: number; rps: number; p50: number; p99: number; errors: number; clientCpuUs: number };

export function post(agent: http.Agent, url: URL, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** How a benchmark's requests go out: written straight to sockets (the default), or through node:http's client (its cost, for comparison). */
export type LoadClient = "raw" | "node:http";

type Sender = { send(body: string, headers: Record<string, string>): Promise<number>; close(): void };

/**
 * Runs `total` requests with `concurrency` in flight, one keep-alive connection each; latencies
 * in milliseconds. By default the requests go out as bytes written straight to the sockets and
 * the answers are read only as far as their status and length: on a 2-core machine the load
 * generator shares the CPUs with the server it measures, and node:http's client costs several
 * times more CPU per request (`clientCpuUs` says what the chosen client cost).
 */
export async function load(
  url: string,
  makeRequest: () => { body: string; headers: Record<string, string> },
  total: number,
  concurrency: number,
  client: LoadClient = "raw",
): Promise<LoadResult> {
  const target = new URL(url);
  const agent = client === "node:http" ? new http.Agent({ keepAlive: true, maxSockets: concurrency }) : undefined;
  const open = (): Promise<Sender> => (agent ? Promise.resolve({ send: (body, headers) => post(agent, target, body, headers), close: () => {} }) : Connection.open(target));
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      const sender = await open();
      try {
        while (next < total) {
          next++;
          const { body, headers } = makeRequest();
          const s = performance.now();
          const status = await sender.send(body, headers);
          latencies.push(performance.now() - s);
          if (status !== 200) errors++;
        }
      } finally {
        sender.close();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  agent?.destroy();
  return { requests: total, seconds, rps: total / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors, clientCpuUs: (cpu.user + cpu.system) / total };
}

/** One keep-alive HTTP/1.1 connection: a request at a time, answered with its status once its body (Content-Length or chunked) has arrived. */
class Connection implements Sender {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (status: number) => void; reject: (e: Error) => void } | null = null;
  private readonly head: string;

  private constructor(
    private readonly socket: net.Socket,
    url: URL,
  ) {
    this.head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n`;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.answer();
    });
    const fail = (e: Error) => {
      const w = this.waiting;
      this.waiting = null;
      w?.reject(e);
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the server closed the connection")));
  }

  static open(url: URL): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port || 80), url.hostname, () => resolve(new Connection(socket, url)));
      socket.once("error", reject);
    });
  }

  send(body: string, headers: Record<string, string>): Promise<number> {
    let text = this.head;
    for (const [k, v] of Object.entries(headers)) text += `${k}: ${v}\r\n`;
    return new Promise((resolve, reject) => {
      // A connection the server closed between two requests would never answer.
      if (this.socket.destroyed) return reject(new Error("the server closed the connection"));
      this.waiting = { resolve, reject };
      this.socket.write(`${text}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  /** Settles the request once its whole answer is buffered. */
  private answer(): void {
    const end = this.buffered.indexOf("\r\n\r\n");
    if (end < 0 || !this.waiting) return;
    const head = this.buffered.toString("latin1", 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let size: number;
    if (length) size = end + 4 + Number(length[1]);
    else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const last = this.buffered.indexOf("\r\n0\r\n\r\n", end + 4);
      if (last < 0) return;
      size = last + 7;
    } else size = end + 4;
    if (this.buffered.length < size) return;
    this.buffered = this.buffered.subarray(size);
    const w = this.waiting;
    this.waiting = null;
    w.resolve(status);
  }
}
