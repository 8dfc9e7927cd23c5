/** A webhook receiver for tests: an HTTP server on 127.0.0.1 that keeps every request's raw bytes and answers with the statuses it is told. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; json: any };

export class Receiver {
  readonly received: Received[] = [];
  /** Statuses to answer, in order; once used up, `fallback`. */
  statuses: number[] = [];
  fallback = 200;
  private waiters: { n: number; resolve: () => void }[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    const box: { self?: Receiver } = {};
    const server = createServer((req, res) => {
      const self = box.self!;
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        self.received.push({ path: req.url ?? "", headers: req.headers, body, json });
        res.statusCode = self.statuses.shift() ?? self.fallback;
        res.end();
        self.wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    box.self = new Receiver(server, `http://127.0.0.1:${port}/hook`);
    return box.self;
  }

  /** Resolves once `n` requests have arrived in all. */
  count(n: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  /** Requests whose body is the activity `activityId`. */
  forActivity(activityId: string): Received[] {
    return this.received.filter((r) => r.json?.id === activityId);
  }

  private wake(): void {
    const ready = this.waiters.filter((w) => this.received.length >= w.n);
    this.waiters = this.waiters.filter((w) => this.received.length < w.n);
    for (const w of ready) w.resolve();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
