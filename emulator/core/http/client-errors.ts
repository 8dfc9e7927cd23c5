/**
 * Requests the HTTP parser refuses before express sees them. Node answers a request whose
 * headers exceed its limit (16 KiB) with a bare 431 and no body; here it gets the service's
 * error shape instead (`{code, message, details}`, JSON), like every other refusal. Any other
 * client error keeps Node's own answer (a listener on `clientError` replaces it, so it is
 * given here as Node gives it: 400, or 408 for a timeout, then the connection is destroyed).
 * Each carries the CORS headers the request's surface gives (`cors`, from the part of the
 * request the parser had read), so that a page reads the refusal rather than a network error.
 */
import { maxHeaderSize, type IncomingHttpHeaders, type Server } from "node:http";
import type { Socket } from "node:net";
import { GrpcCode, TurnkeyError, turnkeyErrorDetail, badRequestDetail } from "../errors.js";
import type { CorsRequest } from "./cors.js";

type Headers = Record<string, string>;

function rawAnswer(status: string, headers: Headers, body?: string): string {
  const lines = [`HTTP/1.1 ${status}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) lines.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\nConnection: close\r\n\r\n${body ?? ""}`;
}

/** The answer to headers over the limit (Node's --max-http-header-size, 16 KiB by default): 431 with RESOURCE_EXHAUSTED, as a body over its limit gets 413 with it (http/errors.ts). */
export function headersTooLarge(limit: number, headers: Headers = {}): string {
  const message = `request headers too large: the limit is ${limit} bytes for the request line and headers together`;
  const body = new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, message, [turnkeyErrorDetail("REQUEST_INVALID"), badRequestDetail("headers", message)]).toJSON();
  return rawAnswer("431 Request Header Fields Too Large", headers, JSON.stringify(body));
}

/** Node's answers to the other parser refusals (lib/_http_server.js, socketOnError). */
function nodeAnswer(code: string | undefined, headers: Headers): string {
  switch (code) {
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return rawAnswer("413 Payload Too Large", headers);
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return rawAnswer("408 Request Timeout", headers);
    default:
      return rawAnswer("400 Bad Request", headers);
  }
}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e]*?)[ \t]*$/;

/**
 * The request line and the complete header lines at the start of the bytes the parser refused
 * (its error's `rawPacket`); undefined when they do not begin with a request line (the request
 * came in several reads). Values with anything but printable ASCII are left out: what is kept
 * may be echoed in an answer.
 */
export function requestHead(raw: Buffer | undefined): CorsRequest | undefined {
  if (!raw) return undefined;
  const lines = raw.subarray(0, 64 * 1024).toString("latin1").split("\r\n");
  const start = REQUEST_LINE.exec(lines[0]!);
  if (!start) return undefined;
  const headers: IncomingHttpHeaders = {};
  // The last line may be cut short; the headers end at the first empty line.
  for (const line of lines.slice(1, -1)) {
    if (line === "") break;
    const m = HEADER_LINE.exec(line);
    const name = m?.[1]!.toLowerCase();
    if (name && headers[name] === undefined) headers[name] = m![2]!;
  }
  let path: string;
  try {
    path = new URL(start[2]!, "http://emulator.invalid").pathname;
  } catch {
    return undefined;
  }
  return { method: start[1]!, path, headers };
}

/** Answers the parser's refusals in the service's shape, with `cors(head)`'s headers for the request they refuse. */
export function answerClientErrors(server: Server, cors: (head: CorsRequest) => Headers = () => ({})): void {
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    // As Node: answer only when nothing of a response has reached this connection yet.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const head = requestHead(err.rawPacket);
      const headers = head ? cors(head) : {};
      socket.write(err.code === "HPE_HEADER_OVERFLOW" ? headersTooLarge(maxHeaderSize, headers) : nodeAnswer(err.code, headers));
    }
    socket.destroy(err);
  });
}
