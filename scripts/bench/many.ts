/**
 * `npm run bench -- many`: many at once.
 *   - 8 instances of `node bin/emulator.js start --port 0` started together, until every one
 *     answers GET /emulator/v1/info (goal: all within 2 s), next to one instance alone in the same run;
 *   - one instance (a child process) serving 50 sub-organizations signing concurrently: 50
 *     clients, each with its sub-organization's own API key and wallet, each sending
 *     sign_raw_payload requests back to back (goal: no error; p50 / p99 reported next to one
 *     client alone in the same run).
 */
import { EmulatorChild } from "./emulator-child.js";
import { Client, completed, createSubOrganization, newP256Key } from "./client.js";
import { figure, median, ms, percentile, quick } from "./report.js";
import { timeToInfo } from "./start.js";

async function parallelStarts(n: number): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, () => timeToInfo(process.execPath, ["bin/emulator.js", "start", "--port", "0"])));
  return performance.now() - t0;
}

const sign = (c: Client, address: string, i: number) =>
  c.submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: address, payload: `0x${Buffer.from(`many ${i}`.padEnd(32, ".")).toString("hex")}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });

export async function benchMany(): Promise<void> {
  const ORGS = 50;
  const PER_CLIENT = quick ? 10 : 40;
  console.log(`\n# many at once: 8 CLI instances started together; ${ORGS} sub-organizations signing concurrently (${PER_CLIENT} signatures each)\n`);
  const alone = median([await parallelStarts(1), await parallelStarts(1), await parallelStarts(1)]);
  const eight = median([await parallelStarts(8), ...(quick ? [] : [await parallelStarts(8), await parallelStarts(8)])]);
  figure({ section: "many", name: "8 instances started in parallel, all ready", value: ms(eight), baseline: `1 instance alone ${ms(alone)}`, goal: "<= 2000 ms", met: eight <= 2000 });

  const child = await EmulatorChild.start();
  const { info } = child;
  const parent = new Client(info.url, { publicKey: info.apiPublicKey, privateKey: info.apiPrivateKey }, info.organizationId);
  try {
    const orgs: { client: Client; address: string }[] = [];
    for (let i = 0; i < ORGS; i++) {
      const key = newP256Key();
      const org = await createSubOrganization(parent, `many ${i}`, key);
      orgs.push({ client: new Client(info.url, key, org.id), address: org.address });
    }
    // Baseline: one client alone, sequential.
    const one: number[] = [];
    for (let i = 0; i < PER_CLIENT * 2; i++) {
      const t = performance.now();
      completed("sign_raw_payload", await sign(orgs[0]!.client, orgs[0]!.address, -i - 1));
      one.push(performance.now() - t);
    }
    const latencies: number[] = [];
    let errors = 0;
    const samples: string[] = [];
    const t0 = performance.now();
    await Promise.all(
      orgs.map(async ({ client, address }, o) => {
        for (let i = 0; i < PER_CLIENT; i++) {
          const t = performance.now();
          try {
            completed("sign_raw_payload", await sign(client, address, o * 1000 + i));
          } catch (e) {
            errors++;
            if (samples.length < 3) samples.push(String((e as Error).message));
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    for (const s of samples) console.log(`  error sample: ${s}`);
    figure({
      section: "many",
      name: `${ORGS} sub-orgs signing concurrently: errors`,
      value: `${errors} of ${latencies.length} (${(latencies.length / seconds).toFixed(0)} signatures/s)`,
      goal: "0 errors",
      met: errors === 0,
    });
    figure({ section: "many", name: `${ORGS} sub-orgs signing concurrently: p50 / p99`, value: `${ms(percentile(latencies, 0.5), 1)} / ${ms(percentile(latencies, 0.99), 1)}`, baseline: `1 client alone p50 ${ms(median(one), 2)}, p99 ${ms(percentile(one, 0.99), 1)}` });
    for (const o of orgs) o.client.close();
  } finally {
    parent.close();
    await child.stop();
  }
}
