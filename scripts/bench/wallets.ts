/**
 * Wallet benchmark: `create_wallet` with one Ethereum account and `create_wallet_accounts`
 * with 100 accounts over stamped HTTP, each next to the raw derivation of the same work in
 * the same run (mnemonic + PBKDF2 seed + BIP32 path + address, in-process, cold caches).
 */
import http from "node:http";
import { startEmulator } from "../../emulator/index.js";
import { addressFor, deriveKey, generateMnemonic, mnemonicToSeed } from "../../emulator/derivation/index.js";
import { Lru } from "../../emulator/core/lib/lru.js";
import type { HdNode } from "../../emulator/derivation/index.js";
import { post } from "./http.js";
import { median, stampedSubmissions } from "./stamped.js";

const eth = (i: number) => ({ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: `m/44'/60'/0'/0/${i}`, addressFormat: "ADDRESS_FORMAT_ETHEREUM" });

export async function benchWallets(): Promise<void> {
  console.log("\n# wallet benchmark\n");
  const N = Number(process.env.BENCH_WALLETS ?? 60);

  // Raw: the derivation work of one create_wallet, in-process.
  const raw1: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const seed = mnemonicToSeed(generateMnemonic(12));
    addressFor("ADDRESS_FORMAT_ETHEREUM", "CURVE_SECP256K1", deriveKey(seed, "CURVE_SECP256K1", "m/44'/60'/0'/0/0").publicKey);
    raw1.push(performance.now() - t);
  }

  const emu = await startEmulator({ port: 0, validateResponses: false });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${emu.url}/public/v1/submit/create_wallet`);
  const wallets = await stampedSubmissions(emu, "ACTIVITY_TYPE_CREATE_WALLET", (i) => ({ walletName: `bench-${i}`, accounts: [eth(0)] }), N);
  const http1 = await timedPosts(agent, url, wallets, "create_wallet");
  console.log(`create_wallet (1 ETH account)        p50 ${median(http1).toFixed(2)} ms over HTTP; raw derivation p50 ${median(raw1).toFixed(2)} ms; ratio ${(median(http1) / median(raw1)).toFixed(2)}x`);

  // 100 accounts on one existing wallet, cold derivation cache each time.
  const R = Number(process.env.BENCH_ACCOUNT_RUNS ?? 5);
  const seed = mnemonicToSeed(generateMnemonic(12));
  const raw100: number[] = [];
  for (let r = 0; r < R; r++) {
    const cache = { nodes: new Lru<string, HdNode>(4096), scope: "bench" }; // cold, as a new wallet's in the keyring
    const t = performance.now();
    for (let i = 0; i < 100; i++) addressFor("ADDRESS_FORMAT_ETHEREUM", "CURVE_SECP256K1", deriveKey(seed, "CURVE_SECP256K1", `m/44'/60'/${r}'/0/${i}`, { cache }).publicKey);
    raw100.push(performance.now() - t);
  }
  const target = JSON.parse(wallets[0]!.body).parameters;
  void target;
  const walletIds = emu.runtime.store.wallets.list(emu.info.organizationId).filter((w) => w.name.startsWith("bench-")).map((w) => w.id);
  const batches = await stampedSubmissions(emu, "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS", (r) => ({ walletId: walletIds[r]!, accounts: Array.from({ length: 100 }, (_, i) => ({ ...eth(i), path: `m/44'/60'/${r + 1}'/0/${i}` })) }), R);
  const urlAccounts = new URL(`${emu.url}/public/v1/submit/create_wallet_accounts`);
  // The instance's node cache still holds each wallet's m/44'/60' chain from create_wallet: a
  // batch saves that one master + two steps over the cold start the old global cache's clear gave.
  const http100 = await timedPosts(agent, urlAccounts, batches, "create_wallet_accounts");
  console.log(`create_wallet_accounts (100 ETH)     p50 ${median(http100).toFixed(1)} ms over HTTP; raw derivation p50 ${median(raw100).toFixed(1)} ms; ratio ${(median(http100) / median(raw100)).toFixed(2)}x`);
  agent.destroy();
  await emu.stop();
}

/** Milliseconds of each stamped POST, one after another; any answer but 200 throws. */
async function timedPosts(agent: http.Agent, url: URL, requests: { body: string; headers: Record<string, string> }[], what: string): Promise<number[]> {
  const ms: number[] = [];
  for (const r of requests) {
    const t = performance.now();
    const status = await post(agent, url, r.body, r.headers);
    ms.push(performance.now() - t);
    if (status !== 200) throw new Error(`${what} answered ${status}`);
  }
  return ms;
}
