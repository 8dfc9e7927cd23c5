/**
 * What the instance's HTTP server is doing: how many of the service's requests are being served
 * now, and when the last one ended. Background work (webhook deliveries) asks it for a quiet
 * moment, so that on busy CPUs it does not take time from requests.
 *
 * Only the service's surfaces count (the coordinator, the auth proxy, the JWKS): the control API
 * (/emulator/...) carries long-lived streams (the UI's event stream) and a test's polling, which
 * are not load to make way for.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * Whether the instance's server has service requests open besides the one asking: then work
 * that can run off the event loop (a stamp's signature check, a secp256k1 signature) goes
 * there, and the loop serves the others meanwhile; alone, it is done at once (no hand-off).
 */
export function othersInFlight(serving: Serving | undefined): boolean {
  return (serving?.open ?? 0) > 1;
}

export class Serving {
  /** Service requests received and not yet answered (or dropped). */
  open = 0;
  /** performance.now() when the last one ended. */
  lastEndAt = -Infinity;

  /** Counts the server's requests from now on (before its own handler sees them). */
  track(server: Server): void {
    server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => this.begin(req.url ?? "", res));
  }

  begin(url: string, res: { once(event: "close", listener: () => void): unknown }): void {
    if (url.startsWith("/emulator/")) return;
    this.open++;
    res.once("close", () => {
      this.open--;
      this.lastEndAt = performance.now();
    });
  }

  /**
   * Milliseconds until the server will have served nothing for `quietMs`: 0 when it already has;
   * `quietMs` while requests are open (their end is not known yet: ask again then).
   */
  untilQuiet(quietMs: number, now = performance.now()): number {
    if (this.open > 0) return quietMs;
    return Math.max(0, this.lastEndAt + quietMs - now);
  }
}
