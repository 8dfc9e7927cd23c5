/**
 * `npm run bench -- sign`: the per-request cost. The emulator runs in a child process
 * (emulator-child.ts); in the same run:
 *   - raw @noble/curves secp256k1 signing of the same keccak digests in this process (the
 *     issue's baseline), and raw libsecp256k1 signing (what the emulator signs with);
 *   - a bare node:http handler and an express app doing the same raw-body read and JSON
 *     answer, in the emulator's process: express's own cost next to the floor of any HTTP server;
 *   - stamped whoami (the request path without an activity) and sign_raw_payload, sequential
 *     and 16 in flight;
 *   - sequential sign_raw_payload through @turnkey/http's TurnkeyClient (with ApiKeyStamper),
 *     next to the ceiling a client of it could reach: the client's own stamping of the request
 *     (`stampSignRawPayload`) plus the raw libsecp256k1 signature the server must make; and the
 *     same client against the child's `essential` server (node:http, the stamp check, the
 *     signature and one SQLite row: the least any server does), which bounds that ratio.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { TurnkeyClient } from "@turnkey/http";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { signRecoverableSecp256k1 } from "../../emulator/curves/secp256k1.js";
import { EmulatorChild } from "./emulator-child.js";
import { Client } from "./client.js";
import { load, type LoadResult } from "./http.js";
import { figure, midpointMedian as median, quick, ratio } from "./report.js";

const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

function rawSigning(payloads: Buffer[]): { nobleUs: number; libUs: number } {
  const priv = secp256k1.utils.randomSecretKey();
  const digests = payloads.map((p) => keccak_256(p));
  // Warm both (noble builds its precomputed tables on first use).
  for (const d of digests.slice(0, 50)) {
    secp256k1.sign(d, priv, { prehash: false });
    signRecoverableSecp256k1(d, priv);
  }
  let t = performance.now();
  for (const p of payloads) secp256k1.sign(keccak_256(p), priv, { prehash: false });
  const nobleUs = ((performance.now() - t) * 1000) / payloads.length;
  t = performance.now();
  for (const p of payloads) signRecoverableSecp256k1(keccak_256(p), priv);
  const libUs = ((performance.now() - t) * 1000) / payloads.length;
  return { nobleUs, libUs };
}

type SignInput = Parameters<TurnkeyClient["signRawPayload"]>[0];

/**
 * Sequential `signRawPayload` calls through @turnkey/http and, interleaved with them in blocks
 * of 100 so that the machine's load drifts alike over all three: the client's own building and
 * stamping of the same requests (`stampSignRawPayload`) and the raw libsecp256k1 signature of
 * their digests. Each in us per request; `errors`: the calls that did not complete.
 */
async function viaTurnkeyHttp(tk: TurnkeyClient, essential: TurnkeyClient, inputs: SignInput[]): Promise<{ stampUs: number; libUs: number; us: number; essentialUs: number; errors: number }> {
  const priv = secp256k1.utils.randomSecretKey();
  let stampMs = 0;
  let libMs = 0;
  let sendMs = 0;
  let essentialMs = 0;
  let errors = 0;
  /** Sends the block one call after another; the milliseconds it took. */
  const sendAll = async (client: TurnkeyClient, block: SignInput[]) => {
    const t = performance.now();
    for (const input of block) {
      try {
        const r = await client.signRawPayload(input);
        if (r.activity.status !== "ACTIVITY_STATUS_COMPLETED") errors++;
      } catch {
        errors++;
      }
    }
    return performance.now() - t;
  };
  for (let i = 0; i < inputs.length; i += 100) {
    const block = inputs.slice(i, i + 100);
    let t = performance.now();
    for (const input of block) await tk.stampSignRawPayload(input);
    stampMs += performance.now() - t;
    t = performance.now();
    for (const input of block) signRecoverableSecp256k1(keccak_256(Buffer.from(input.parameters.payload.slice(2), "hex")), priv);
    libMs += performance.now() - t;
    sendMs += await sendAll(tk, block);
    essentialMs += await sendAll(essential, block);
  }
  const us = (ms: number) => (ms * 1000) / inputs.length;
  return { stampUs: us(stampMs), libUs: us(libMs), us: us(sendMs), essentialUs: us(essentialMs), errors };
}

const line = (name: string, r: LoadResult) =>
  console.log(`  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s  ${(1e6 / r.rps).toFixed(0).padStart(5)} us/req  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}  (load generator ${r.clientCpuUs.toFixed(0)} us CPU/req)`);

export async function benchRequestPath(): Promise<void> {
  const N = Number(process.env.BENCH_SIGNATURES ?? (quick ? 1000 : 3000));
  // One run of a few seconds moves by +-10% with what else the machine does: the figures are
  // the median of REPS rounds, each with its own raw-signing baseline measured right before.
  const REPS = quick ? 1 : 5;
  console.log(`\n# request path: sign_raw_payload and whoami over stamped HTTP, emulator in a child process (${N} requests per run, ${REPS} rounds; figures are medians over rounds)\n`);
  const payloads = Array.from({ length: N }, (_, i) => Buffer.from(`bench payload ${i}`));

  const child = await EmulatorChild.start();
  const { info } = child;
  const client = new Client(info.url, { publicKey: info.apiPublicKey, privateKey: info.apiPrivateKey }, info.organizationId);
  const whoami = await client.stamped({});
  const fixed = () => whoami;
  const results: Record<string, LoadResult[]> = {};
  const rawAt: Record<number, { nobleUs: number; libUs: number }[]> = {};
  const stamper = new ApiKeyStamper({ apiPublicKey: info.apiPublicKey, apiPrivateKey: info.apiPrivateKey });
  const tk = new TurnkeyClient({ baseUrl: info.url }, stamper);
  const tkEssential = new TurnkeyClient({ baseUrl: info.essentialUrl }, stamper);
  /** Per round: the requests through @turnkey/http, with the client's stamping and the raw signature measured between them. */
  const viaHttp: { stampUs: number; libUs: number; us: number; essentialUs: number; errors: number }[] = [];
  const keep = (k: string, r: LoadResult) => (results[k] ??= []).push(r);
  let ts = Date.now();
  try {
    // Warm-up: the server's paths and the load generator's own code (its first thousand requests run unoptimized).
    for (const url of [info.bareUrl, info.expressUrl, `${info.url}/public/v1/query/whoami`]) for (const inFlight of [1, 16]) await load(url.includes("/public/") ? url : `${url}/public/v1/query/whoami`, fixed, 1000, inFlight);
    await load(`${info.bareUrl}/public/v1/query/whoami`, fixed, 1000, 16, "node:http");
    const signBodies = (n: number) =>
      Promise.all(
        payloads.slice(0, n).map((p) =>
          client.stamped({ type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", timestampMs: String(ts++), parameters: { signWith: ANVIL_0, payload: `0x${p.toString("hex")}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" } }),
        ),
      );
    for (const inFlight of [1, 16]) {
      const warm = await signBodies(500);
      let w = 0;
      await load(`${info.url}/public/v1/submit/sign_raw_payload`, () => warm[w++]!, warm.length, inFlight);
    }
    const tkInputs = (n: number): SignInput[] =>
      payloads.slice(0, n).map((p) => ({
        type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
        timestampMs: String(ts++),
        organizationId: info.organizationId,
        parameters: { signWith: ANVIL_0, payload: `0x${p.toString("hex")}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" },
      }));
    await viaTurnkeyHttp(tk, tkEssential, tkInputs(500));
    for (let round = 0; round < REPS; round++) {
      for (const inFlight of [1, 16]) {
        keep(`bare${inFlight}`, await load(`${info.bareUrl}/public/v1/query/whoami`, fixed, N, inFlight));
        keep(`express${inFlight}`, await load(`${info.expressUrl}/public/v1/query/whoami`, fixed, N, inFlight));
        keep(`whoami${inFlight}`, await load(`${info.url}/public/v1/query/whoami`, fixed, N, inFlight));
        const bodies = await signBodies(N);
        let next = 0;
        // The machine's load drifts: raw signing is measured again right before each signing run, and that figure is its baseline.
        (rawAt[inFlight] ??= []).push(rawSigning(payloads.slice(0, Math.min(N, 1000))));
        keep(`sign${inFlight}`, await load(`${info.url}/public/v1/submit/sign_raw_payload`, () => bodies[next++]!, N, inFlight));
      }
      viaHttp.push(await viaTurnkeyHttp(tk, tkEssential, tkInputs(N)));
    }
    // What node:http's own client would have cost per request (the baseline of the load generator's figure).
    keep("nodeHttpClient", await load(`${info.bareUrl}/public/v1/query/whoami`, fixed, N, 16, "node:http"));
  } finally {
    client.close();
    await child.stop();
  }
  const us = (r: LoadResult) => 1e6 / r.rps;
  /** The round whose figure is the median (for the detail lines). */
  const medianRun = (k: string) => [...results[k]!].sort((a, b) => a.rps - b.rps)[Math.floor((results[k]!.length - 1) / 2)]!;
  const medianUs = (k: string) => median(results[k]!.map(us));
  const raw = (inFlight: number) => ({ nobleUs: median(rawAt[inFlight]!.map((r) => r.nobleUs)), libUs: median(rawAt[inFlight]!.map((r) => r.libUs)) });
  for (const inFlight of [1, 16]) {
    console.log(`\n  ${inFlight} in flight (median round; raw signing: noble ${raw(inFlight).nobleUs.toFixed(0)} us, libsecp256k1 ${raw(inFlight).libUs.toFixed(0)} us per signature):`);
    line("bare node:http handler", medianRun(`bare${inFlight}`));
    line("express (raw body + JSON answer)", medianRun(`express${inFlight}`));
    line("stamped whoami", medianRun(`whoami${inFlight}`));
    line("stamped sign_raw_payload", medianRun(`sign${inFlight}`));
  }
  console.log("");
  for (const inFlight of [1, 16]) {
    const runs = results[`sign${inFlight}`]!;
    const ratios = runs.map((r, i) => rawAt[inFlight]![i]!.nobleUs / us(r));
    const r = median(ratios);
    const goal = inFlight === 1 ? 0.5 : 1;
    const errors = runs.reduce((s, x) => s + x.errors, 0);
    const sign = medianRun(`sign${inFlight}`);
    figure({
      section: "sign",
      name: `sign_raw_payload ${inFlight === 1 ? "sequential" : "16 in flight"} / raw noble`,
      value: `${ratio(r)} (${(1e6 / medianUs(`sign${inFlight}`)).toFixed(0)}/s, p99 ${sign.p99.toFixed(1)} ms, errors ${errors}${REPS > 1 ? `; rounds ${[...ratios].sort((a, b) => a - b).map((x) => x.toFixed(2)).join(" ")}` : ""})`,
      baseline: `noble ${(1e6 / raw(inFlight).nobleUs).toFixed(0)}/s`,
      goal: `>= ${goal}x`,
      met: r >= goal && errors === 0,
    });
  }
  {
    // The ceiling of a sequential @turnkey/http client: its own stamping plus the server's raw signature, nothing else.
    const ceilingUs = (r: (typeof viaHttp)[number]) => r.stampUs + r.libUs;
    const ratios = viaHttp.map((r) => ceilingUs(r) / r.us);
    const r = median(ratios);
    const errors = viaHttp.reduce((s, x) => s + x.errors, 0);
    const stampUs = median(viaHttp.map((x) => x.stampUs));
    const libUs = median(viaHttp.map((x) => x.libUs));
    figure({ section: "sign", name: "ceiling: client stamp + raw signature", value: `${(1e6 / (stampUs + libUs)).toFixed(0)} req/s`, baseline: `stampSignRawPayload ${stampUs.toFixed(0)} us + libsecp256k1 sign ${libUs.toFixed(0)} us` });
    figure({
      section: "sign",
      name: "through @turnkey/http / ceiling",
      value: `${ratio(r)} (${(1e6 / median(viaHttp.map((x) => x.us))).toFixed(0)}/s, errors ${errors}${REPS > 1 ? `; rounds ${[...ratios].sort((a, b) => a - b).map((x) => x.toFixed(2)).join(" ")}` : ""})`,
      baseline: `ceiling ${(1e6 / (stampUs + libUs)).toFixed(0)}/s`,
      goal: ">= 0.5x",
      met: r >= 0.5 && errors === 0,
    });
    // The same client against the least any server must do (emulator-child.ts `essential`): the bound of that ratio.
    const floorRatios = viaHttp.map((x) => ceilingUs(x) / x.essentialUs);
    const essentialUs = median(viaHttp.map((x) => x.essentialUs));
    const callUs = median(viaHttp.map((x) => x.us));
    figure({
      section: "sign",
      name: "bound: essential server / ceiling",
      value: `${ratio(median(floorRatios))} (${(1e6 / essentialUs).toFixed(0)}/s)`,
      baseline: "node:http + stamp check + signature + one SQLite row, through @turnkey/http",
    });
    figure({
      section: "sign",
      name: "through @turnkey/http / essential server",
      value: `${ratio(median(viaHttp.map((x) => x.essentialUs / x.us)))} (+${(callUs - essentialUs).toFixed(0)} us/call)`,
      baseline: `essential ${essentialUs.toFixed(0)} us/call, emulator ${callUs.toFixed(0)} us/call`,
    });
  }
  for (const inFlight of [1, 16]) {
    const { libUs } = raw(inFlight);
    figure({ section: "sign", name: `server work besides signing, ${inFlight} in flight`, value: `${(medianUs(`sign${inFlight}`) - libUs).toFixed(0)} us/request`, baseline: `libsecp256k1 sign ${libUs.toFixed(0)} us` });
  }
  for (const inFlight of [1, 16]) {
    const bare = medianUs(`bare${inFlight}`);
    const ex = medianUs(`express${inFlight}`);
    const who = medianUs(`whoami${inFlight}`);
    figure({ section: "sign", name: `express's own cost, ${inFlight} in flight`, value: `+${(ex - bare).toFixed(0)} us/request`, baseline: `bare node:http ${bare.toFixed(0)} us` });
    figure({ section: "sign", name: `stamped whoami, ${inFlight} in flight`, value: `${who.toFixed(0)} us/request`, baseline: `bare ${bare.toFixed(0)} us, express ${ex.toFixed(0)} us` });
  }
  const { nodeHttpClient, ...measured } = results;
  const clientUs = median(Object.values(measured).flat().map((r) => r.clientCpuUs));
  figure({ section: "sign", name: "load generator's CPU per request (raw sockets)", value: `${clientUs.toFixed(0)} us`, baseline: `node:http's client ${nodeHttpClient![0]!.clientCpuUs.toFixed(0)} us (bare handler, 16 in flight)` });
}
