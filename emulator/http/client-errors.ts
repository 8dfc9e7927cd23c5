/**
 * Requests the HTTP parser refuses before express sees them. Node answers a request whose
 * headers exceed its limit (16 KiB) with a bare 431 and no body; here it gets the service's
 * error shape instead (`{code, message, details}`, JSON), like every other refusal. Any other
 * client error keeps Node's own answer (a listener on `clientError` replaces it, so it is
 * given here as Node gives it: 400, or 408 for a timeout, then the connection is destroyed).
 */
import { maxHeaderSize, type Server } from "node:http";
import type { Socket } from "node:net";
import { GrpcCode, TurnkeyError, turnkeyErrorDetail, badRequestDetail } from "../errors.js";

function rawAnswer(status: string, body?: string): string {
  if (body === undefined) return `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`;
  return `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** The answer to headers over the limit (Node's --max-http-header-size, 16 KiB by default): 431 with RESOURCE_EXHAUSTED, as a body over its limit gets 413 with it (http/errors.ts). */
export function headersTooLarge(limit: number): string {
  const message = `request headers too large: the limit is ${limit} bytes for the request line and headers together`;
  const body = new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, message, [turnkeyErrorDetail("REQUEST_INVALID"), badRequestDetail("headers", message)]).toJSON();
  return rawAnswer("431 Request Header Fields Too Large", JSON.stringify(body));
}

/** Node's answers to the other parser refusals (lib/_http_server.js, socketOnError). */
function nodeAnswer(code: string | undefined): string {
  switch (code) {
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return rawAnswer("413 Payload Too Large");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return rawAnswer("408 Request Timeout");
    default:
      return rawAnswer("400 Bad Request");
  }
}

export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    // As Node: answer only when nothing of a response has reached this connection yet.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      socket.write(err.code === "HPE_HEADER_OVERFLOW" ? headersTooLarge(maxHeaderSize) : nodeAnswer(err.code));
    }
    socket.destroy(err);
  });
}
