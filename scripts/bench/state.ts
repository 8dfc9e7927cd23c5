/**
 * `npm run bench -- state`: flat with state. The emulator runs in a child process
 * (emulator-child.ts, in-memory database). Page times of list_activities, list_wallets,
 * list_wallet_accounts (get_wallet_accounts) and list_suborgs are taken at a small state and
 * again at a large one in the same run (the small one is the baseline; goal: within 1.5x):
 *   - activities: 1k, then 100k in the main organization (copies of a real sign_raw_payload
 *     activity with its policy evaluation; --quick: 10k);
 *   - sub-organizations: 1k, then 10k (copies of one made with create_sub_organization: root
 *     user, wallet with one account, so 10k wallets and accounts too; --quick: 100, then 1k).
 * Filling goes through the child's database directly (emulator-child.ts says how), so that it
 * does not dominate the run. Memory: RSS idle (after start and a GC), after the activities,
 * right after POST /emulator/v1/reset and after 10 s idle (goals: idle <= 100 MB, <= 200 MB
 * with 100k activities, back within 20% of idle after a reset, read once idle).
 */
import { EmulatorChild } from "./emulator-child.js";
import { Client, completed, createSubOrganization, newP256Key } from "./client.js";
import { figure, mb, median, ms, quick, ratio } from "./report.js";

const REPEAT = quick ? 30 : 60;
/** How long the instance is left idle after a reset before its settled RSS is read (V8's memory reducer acts after ~8 s without much allocation). */
const RESET_SETTLE_MS = 10_000;

/** One emulator child and a client of its main organization. */
type Side = { child: EmulatorChild; parent: Client };

/**
 * Median latency of the same query on the small and the large instance, sent alternately
 * (REPEAT times each), so that both medians see the same machine load. Queries carry no
 * timestamp, so one stamp serves every repetition.
 */
async function pair(small: Client, large: Client, op: string, payload: (side: "small" | "large") => Record<string, unknown>, check: (json: any) => boolean): Promise<[number, number]> {
  const path = `/public/v1/query/${op}`;
  const sides = [
    { c: small, req: await small.stamped(payload("small")), xs: [] as number[] },
    { c: large, req: await large.stamped(payload("large")), xs: [] as number[] },
  ];
  for (let i = 0; i < REPEAT + 5; i++) {
    for (const s of i % 2 ? sides : [...sides].reverse()) {
      const t = performance.now();
      const r = await s.c.send(path, s.req.body, s.req.headers);
      if (i >= 5) s.xs.push(performance.now() - t);
      if (r.status !== 200 || !check(r.json)) throw new Error(`${op} failed: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
    }
  }
  return [median(sides[0]!.xs), median(sides[1]!.xs)];
}

type Pages = Record<string, [number, number]>;

async function activityPages(small: Client, large: Client): Promise<Pages> {
  const cursor = { small: "", large: "" };
  for (const [side, c] of [["small", small], ["large", large]] as const) cursor[side] = (await c.query("list_activities", { paginationOptions: { limit: "100" } })).json.activities[50].id;
  const ok = (j: any) => Array.isArray(j.activities) && j.activities.length > 0;
  return {
    "list_activities first page (10)": await pair(small, large, "list_activities", () => ({}), ok),
    "list_activities page of 100 before a cursor": await pair(small, large, "list_activities", (side) => ({ paginationOptions: { limit: "100", before: cursor[side] } }), ok),
    "list_activities filtered by type and status": await pair(small, large, "list_activities", () => ({ filterByType: ["ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"], filterByStatus: ["ACTIVITY_STATUS_COMPLETED"] }), ok),
  };
}

type SubOrgSide = { parent: Client; sub: Client; walletId: string; cursor: string };

async function subOrgPages(small: SubOrgSide, large: SubOrgSide): Promise<Pages> {
  const ok = (key: string) => (j: any) => Array.isArray(j[key]) && j[key].length > 0;
  const of = (side: "small" | "large") => (side === "small" ? small : large);
  return {
    "list_suborgs first page (10)": await pair(small.parent, large.parent, "list_suborgs", () => ({}), ok("organizationIds")),
    "list_suborgs page of 10 after a cursor": await pair(small.parent, large.parent, "list_suborgs", (side) => ({ paginationOptions: { after: of(side).cursor } }), ok("organizationIds")),
    "list_wallets of one sub-org": await pair(small.sub, large.sub, "list_wallets", () => ({}), ok("wallets")),
    "list_wallet_accounts of its wallet (10)": await pair(small.sub, large.sub, "list_wallet_accounts", (side) => ({ walletId: of(side).walletId }), ok("accounts")),
    "list_wallet_accounts of the sub-org (10)": await pair(small.sub, large.sub, "list_wallet_accounts", () => ({}), ok("accounts")),
  };
}

function report(pages: Pages, smallLabel: string, largeLabel: string): void {
  for (const [name, [small, large]] of Object.entries(pages)) {
    const r = large / small;
    figure({ section: "state", name: `${name} at ${largeLabel}`, value: `${ms(large, 2)} = ${ratio(r)}`, baseline: `${ms(small, 2)} at ${smallLabel}`, goal: "<= 1.5x", met: r <= 1.5 });
  }
}

async function side(): Promise<Side> {
  const child = await EmulatorChild.start();
  const { info } = child;
  return { child, parent: new Client(info.url, { publicKey: info.apiPublicKey, privateKey: info.apiPrivateKey }, info.organizationId) };
}

async function subOrgSide(s: Side, count: number): Promise<SubOrgSide> {
  const key = newP256Key();
  const template = await createSubOrganization(s.parent, "state template", key);
  const sub = new Client(s.child.info.url, key, template.id);
  const walletId = (await sub.query("list_wallets")).json.wallets[0].walletId;
  await s.child.ask({ kind: "cloneSubOrganization", templateId: template.id, count: count - 1 });
  const cursor = (await s.parent.query("list_suborgs", { paginationOptions: { limit: "100" } })).json.organizationIds[50];
  return { parent: s.parent, sub, walletId, cursor };
}

export async function benchState(): Promise<void> {
  const ACTIVITIES = quick ? [1_000, 10_000] : [1_000, 100_000];
  const SUB_ORGS = quick ? [100, 1_000] : [1_000, 10_000];
  const k = (n: number) => `${n / 1000}k`;
  console.log(`\n# flat with state: two emulator child processes, one small and one large, queried alternately (median of ${REPEAT} requests each): ${k(ACTIVITIES[0]!)} vs ${k(ACTIVITIES[1]!)} activities, then ${k(SUB_ORGS[0]!)} vs ${k(SUB_ORGS[1]!)} sub-organizations (each with a wallet)\n`);
  const small = await side();
  const large = await side();
  const subs: Client[] = [];
  try {
    // Warm the process (JIT, statement cache) before the idle figure, as any first request would.
    await large.parent.query("whoami");
    const idle = await large.child.memory(true);
    figure({ section: "state", name: "RSS idle (after start, one request, GC)", value: mb(idle.rss), goal: "<= 100 MB", met: idle.rss <= 100 * 2 ** 20 });

    // Activities: one real sign_raw_payload activity, then copies of it.
    for (const [s, n] of [[small, ACTIVITIES[0]!], [large, ACTIVITIES[1]!]] as const) {
      completed("sign_raw_payload", await s.parent.submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", payload: `0x${"ab".repeat(32)}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" }));
      const have = await s.child.ask<number>({ kind: "count", table: "activities" });
      const t = performance.now();
      await s.child.ask({ kind: "cloneActivities", orgId: s.child.info.organizationId, count: n - have });
      console.log(`  (filled ${k(n)} activities in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
    report(await activityPages(small.parent, large.parent), k(ACTIVITIES[0]!), k(ACTIVITIES[1]!));
    const full = await large.child.memory(true);
    figure({ section: "state", name: `RSS after ${k(ACTIVITIES[1]!)} activities (GC)`, value: mb(full.rss), baseline: `idle ${mb(idle.rss)}`, goal: "<= 200 MB", met: full.rss <= 200 * 2 ** 20 });

    // Right after the reset, V8's young generation is still at the size the fill's allocation
    // rate grew it to (16 MB more than at idle here); V8 gives that back once the process has
    // been idle for a few seconds (its memory reducer), so the goal is read then. What stays is
    // the emulator's: SQLite's freed page cache and the old state's objects.
    const afterReset = await large.child.ask<{ rss: number }>({ kind: "reset" });
    figure({ section: "state", name: "RSS right after reset (GC)", value: `${mb(afterReset.rss)} (${((afterReset.rss / idle.rss - 1) * 100).toFixed(0)}% over idle)`, baseline: `idle ${mb(idle.rss)}` });
    const settled = await large.child.ask<{ rss: number }>({ kind: "idle", ms: RESET_SETTLE_MS });
    const growth = settled.rss / idle.rss - 1;
    figure({ section: "state", name: `RSS after reset, ${RESET_SETTLE_MS / 1000} s idle (GC)`, value: `${mb(settled.rss)} (${(growth * 100).toFixed(0)}% over idle)`, baseline: `idle ${mb(idle.rss)}`, goal: "within 20% of idle", met: growth <= 0.2 });

    // Sub-organizations, each with a wallet: one real, the rest copies of it.
    const s = await subOrgSide(small, SUB_ORGS[0]!);
    const l = await subOrgSide(large, SUB_ORGS[1]!);
    subs.push(s.sub, l.sub);
    const counts = await Promise.all(["organizations", "wallets", "wallet_accounts"].map((table) => large.child.ask<number>({ kind: "count", table })));
    console.log(`  (large instance: ${counts[0]} organizations, ${counts[1]} wallets, ${counts[2]} wallet accounts)`);
    report(await subOrgPages(s, l), k(SUB_ORGS[0]!), k(SUB_ORGS[1]!));
  } finally {
    for (const c of subs) c.close();
    for (const s of [small, large]) {
      s.parent.close();
      await s.child.stop();
    }
  }
}
