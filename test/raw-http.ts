/** Raw HTTP/1.1 over a socket, for requests fetch will not send (headers over a limit, a body length it would check). */
import { connect } from "node:net";

/**
 * Sends `request` as is to `baseUrl`'s host and port and reads what the server sends until it
 * closes the connection, or until a whole answer with a Content-Length has arrived (the server
 * may answer before it has read the body it was promised).
 */
export function exchange(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (d) => {
      chunks.push(d);
      const raw = Buffer.concat(chunks).toString("latin1");
      const end = raw.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end))?.[1];
      if (end > 0 && length !== undefined && raw.length - end - 4 >= Number(length)) {
        resolve(raw);
        socket.destroy();
      }
    });
    socket.on("error", (e) => (chunks.length ? resolve(Buffer.concat(chunks).toString("latin1")) : reject(e)));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer")));
    socket.write(request);
  });
}

/** Parses a raw HTTP/1.1 answer: status, headers (lowercased names), body. */
export function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  if (end <= 0) throw new Error(`not an HTTP answer: ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine, ...lines] = raw.slice(0, end).split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine!.split(" ")[1]), headers, body: raw.slice(end + 4) };
}
