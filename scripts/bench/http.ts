/** Small HTTP load helpers for the benchmarks: keep-alive POSTs with a fixed concurrency. */
import http from "node:http";

export type LoadResult = { requests: number; seconds: number; rps: number; p50: number; p99: number; errors: number };

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

/** Runs `total` requests with `concurrency` in flight; latencies in milliseconds. */
export async function load(url: string, makeRequest: () => { body: string; headers: Record<string, string> }, total: number, concurrency: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const { body, headers } = makeRequest();
        const s = performance.now();
        const status = await post(agent, target, body, headers);
        latencies.push(performance.now() - s);
        if (status !== 200) errors++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return { requests: total, seconds, rps: total / seconds, p50: pct(0.5), p99: pct(0.99), errors };
}
