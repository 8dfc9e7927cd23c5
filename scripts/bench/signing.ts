/**
 * Signing benchmark: `sign_raw_payload` (secp256k1, KECCAK256) end to end over HTTP with
 * stamps, sequential and 16 in flight, next to raw in-process @noble/curves signing of the
 * same digest in the same run (the issue's baseline). Overhead = (HTTP time per signature -
 * raw) / raw. The emulator itself signs secp256k1 with libsecp256k1 (tiny-secp256k1), whose
 * raw cost is printed too, so both views are visible.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { startEmulator } from "../../emulator/index.js";
import { signRecoverableSecp256k1 } from "../../emulator/curves/secp256k1.js";
import { load } from "./http.js";
import { stampedSubmissions } from "./stamped.js";

const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

export async function benchSigning(): Promise<void> {
  console.log("\n# signing benchmark\n");
  const N = Number(process.env.BENCH_SIGNATURES ?? 1500);
  const priv = secp256k1.utils.randomSecretKey();
  const payloads = Array.from({ length: N }, (_, i) => `0x${Buffer.from(`payload ${i}`).toString("hex")}`);
  const t = performance.now();
  for (const p of payloads) secp256k1.sign(keccak_256(Buffer.from(p.slice(2), "hex")), priv, { prehash: false });
  const rawUs = ((performance.now() - t) * 1000) / N;
  console.log(`raw @noble/curves secp256k1 sign (keccak)  ${rawUs.toFixed(1)} us/signature`);
  const t2 = performance.now();
  for (const p of payloads) signRecoverableSecp256k1(keccak_256(Buffer.from(p.slice(2), "hex")), priv);
  const libUs = ((performance.now() - t2) * 1000) / N;
  console.log(`raw libsecp256k1 sign (what the emulator uses)  ${libUs.toFixed(1)} us/signature`);

  const emu = await startEmulator({ port: 0, validateResponses: false });
  const url = `${emu.url}/public/v1/submit/sign_raw_payload`;
  for (const inFlight of [1, 16]) {
    const bodies = await stampedSubmissions(emu, "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", (i) => ({ signWith: ANVIL_0, payload: payloads[i]!, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" }), N);
    let next = 0;
    const r = await load(url, () => bodies[next++]!, N, inFlight);
    const perSigUs = 1e6 / r.rps;
    console.log(
      `sign_raw_payload over HTTP, ${String(inFlight).padStart(2)} in flight  ${r.rps.toFixed(0)} sig/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}; ` +
        `${perSigUs.toFixed(0)} us/signature = noble raw x${(perSigUs / rawUs).toFixed(2)}, overhead ${(((perSigUs - rawUs) / rawUs) * 100).toFixed(0)}% of noble raw; ` +
        `non-signing work ${(perSigUs - libUs).toFixed(0)} us/request`,
    );
  }
  await emu.stop();
}
