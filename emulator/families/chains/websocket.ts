/**
 * Solana's subscription API over a WebSocket on the chain's RPC path
 * (ws://<host>/emulator/v1/chains/<caip2>/rpc): signatureSubscribe and slotSubscribe, which
 * `Connection.confirmTransaction` and `@solana/kit` wait on. A minimal RFC 6455 server
 * (unfragmented text frames, ping/pong, close): no dependency for a few small messages.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { SolanaChain } from "./solana-chain.js";
import type { SolanaEngine } from "./solana-engine.js";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const PATH = /^\/emulator\/v1\/chains\/([^/?]+)\/rpc(?:\?.*)?$/;

/** Handles an HTTP upgrade if it is for a Solana chain's RPC path; otherwise refuses it. */
/** The chains an upgrade may name (the instance's Networks, networks.ts). */
type SolanaClusters = { solana(caip2: string): Promise<SolanaChain> };

export async function handleChainUpgrade(networks: SolanaClusters, req: IncomingMessage, socket: Duplex): Promise<void> {
  const m = PATH.exec(req.url ?? "");
  const key = req.headers["sec-websocket-key"];
  let engine: SolanaEngine | undefined;
  try {
    if (m && typeof key === "string") engine = (await networks.solana(decodeURIComponent(m[1]!))).localEngine;
  } catch {
    engine = undefined;
  }
  if (!engine || typeof key !== "string") {
    socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    return;
  }
  const accept = createHash("sha1").update(key + GUID).digest("base64");
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  serve(engine, socket);
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, len]) : len < 65536 ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 255]) : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLen(len)]);
  return Buffer.concat([head, payload]);
}
function bigLen(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

function serve(engine: SolanaEngine, socket: Duplex): void {
  let buf = Buffer.alloc(0);
  let nextId = 1;
  const subs = new Map<number, { kind: "signature"; signature: string } | { kind: "slot" }>();
  const send = (msg: unknown) => {
    if (!socket.destroyed) socket.write(frame(1, Buffer.from(JSON.stringify(msg))));
  };
  const notifySignature = (id: number, slot: bigint, err: unknown) => {
    subs.delete(id);
    send({ jsonrpc: "2.0", method: "signatureNotification", params: { result: { context: { slot: Number(slot) }, value: { err } }, subscription: id } });
  };
  const unsubscribe = engine.subscribe((e) => {
    for (const [id, s] of subs) {
      if (e.type === "landed" && s.kind === "signature" && s.signature === e.signature) notifySignature(id, e.slot, e.err);
      if (e.type === "slot" && s.kind === "slot") send({ jsonrpc: "2.0", method: "slotNotification", params: { result: { parent: Number(e.slot) - 1, root: Number(e.slot), slot: Number(e.slot) }, subscription: id } });
    }
  });
  const close = () => {
    unsubscribe();
    subs.clear();
    if (!socket.destroyed) socket.destroy();
  };
  socket.on("close", close);
  socket.on("error", close);

  const onMessage = (text: string) => {
    let req: { id?: unknown; method?: unknown; params?: unknown[] };
    try {
      req = JSON.parse(text);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    if (req.id === undefined) return; // notifications (web3.js pings) need no answer
    const params = Array.isArray(req.params) ? req.params : [];
    const reply = (result: unknown) => send({ jsonrpc: "2.0", id: req.id, result });
    switch (req.method) {
      case "signatureSubscribe": {
        const id = nextId++;
        const signature = String(params[0]);
        subs.set(id, { kind: "signature", signature });
        reply(id);
        const done = engine.landed(signature);
        if (done) notifySignature(id, done.slot, done.err);
        return;
      }
      case "slotSubscribe": {
        const id = nextId++;
        subs.set(id, { kind: "slot" });
        reply(id);
        return;
      }
      case "signatureUnsubscribe":
      case "slotUnsubscribe":
        reply(subs.delete(Number(params[0])) || true);
        return;
      default:
        send({ jsonrpc: "2.0", id: req.id, error: { code: -32601, message: `Method not found: ${String(req.method)} (subscriptions here: signatureSubscribe, slotSubscribe)` } });
    }
  };

  socket.on("data", (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const opcode = buf[0]! & 0x0f;
      const masked = (buf[1]! & 0x80) !== 0;
      let len = buf[1]! & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        off = 10;
      }
      const maskOff = off;
      if (masked) off += 4;
      if (buf.length < off + len) return;
      const payload = Buffer.from(buf.subarray(off, off + len));
      if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= buf[maskOff + (i % 4)]!;
      buf = buf.subarray(off + len);
      if (opcode === 1) onMessage(payload.toString("utf8"));
      else if (opcode === 9) socket.write(frame(10, payload));
      else if (opcode === 8) {
        if (!socket.destroyed) socket.end(frame(8, payload.subarray(0, 2)));
        close();
        return;
      }
    }
  });
}
