/**
 * Local chains benchmark: first-use cost of each chain kind (engine import + chain creation +
 * fixture pre-funding, seen from the first JSON-RPC request) and raw transfer throughput
 * through the chain's JSON-RPC over HTTP (pre-signed transactions, one at a time, automine);
 * then the API on top, through @turnkey/sdk-server: eth_send_transaction (unsponsored and
 * sponsored through the gas station) and sol_send_transaction, sequential.
 */
import { Keypair, SystemProgram, Transaction } from "@solana/web3.js";
import { privateKeyToAccount } from "viem/accounts";
import { startEmulator } from "../../emulator/index.js";
import { Turnkey } from "@turnkey/sdk-server";

const ANVIL_0_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

export async function benchNetworks(): Promise<void> {
  console.log("\n# local chains benchmark\n");
  const N = Number(process.env.BENCH_CHAIN_TXS ?? 500);
  const emu = await startEmulator({ port: 0, validateResponses: false });
  const rpc = async (caip2: string, method: string, params: unknown[] = []) => {
    const r = await fetch(`${emu.url}/emulator/v1/chains/${caip2}/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    const j = (await r.json()) as { result?: any; error?: { message: string } };
    if (j.error) throw new Error(`${method}: ${j.error.message}`);
    return j.result;
  };
  const baseline = performance.now();
  await rpc("eip155:8453", "eth_chainId").catch(() => undefined);
  // The route itself, for a chain already running, is the baseline for first use.
  const warm = performance.now();
  await rpc("eip155:8453", "eth_chainId");
  const routeMs = performance.now() - warm;
  console.log(`first use of an EVM chain (EDR import + context + chain + pre-funding)  ${(warm - baseline).toFixed(0)} ms; a request on a running chain ${routeMs.toFixed(2)} ms`);
  let t = performance.now();
  await rpc("eip155:1", "eth_chainId");
  console.log(`first use of a second EVM chain (engine already loaded)  ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  await rpc("solana:mainnet", "getSlot");
  console.log(`first use of a Solana cluster (LiteSVM load + instance + pre-funding)  ${(performance.now() - t).toFixed(0)} ms`);

  const account = privateKeyToAccount(ANVIL_0_KEY);
  const to = "0x000000000000000000000000000000000000bEEF";
  const evmTxs = await Promise.all(Array.from({ length: N }, (_, nonce) => account.signTransaction({ chainId: 8453, type: "eip1559", nonce, to, value: 1n, gas: 21_000n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n })));
  t = performance.now();
  for (const raw of evmTxs) await rpc("eip155:8453", "eth_sendRawTransaction", [raw]);
  const evmSec = (performance.now() - t) / 1000;
  console.log(`EVM eth_sendRawTransaction over HTTP, sequential, a block per tx  ${(N / evmSec).toFixed(0)} tx/s (${N} transfers)`);

  const payer = Keypair.generate();
  await fetch(`${emu.url}/emulator/v1/chains/solana:mainnet/fund`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address: payer.publicKey.toBase58(), amount: "1000000000000" }) });
  const dest = Keypair.generate().publicKey;
  const { value } = await rpc("solana:mainnet", "getLatestBlockhash");
  const solTxs = Array.from({ length: N }, (_, i) => {
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: value.blockhash }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: dest, lamports: 1_000_000 + i }));
    tx.sign(payer);
    return tx.serialize().toString("base64");
  });
  t = performance.now();
  for (const b64 of solTxs) await rpc("solana:mainnet", "sendTransaction", [b64, { encoding: "base64" }]);
  const solSec = (performance.now() - t) / 1000;
  console.log(`Solana sendTransaction (with preflight) over HTTP, sequential  ${(N / solSec).toFixed(0)} tx/s (${N} transfers)`);

  // The API on top: signing, filling, broadcasting and recording, through the official SDK.
  const M = Number(process.env.BENCH_SEND_ACTIVITIES ?? 200);
  const client = new Turnkey({ apiBaseUrl: emu.url, apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey!, defaultOrganizationId: emu.info.organizationId }).apiClient();
  const from = account.address;
  for (const [label, sponsor] of [
    ["eth_send_transaction (EIP-1559)", false],
    ["eth_send_transaction sponsored (gas station batch)", true],
  ] as const) {
    t = performance.now();
    for (let i = 0; i < M; i++) await client.ethSendTransaction({ from, caip2: "eip155:1", sponsor, calls: [{ to, value: "1" }] });
    console.log(`${label} through @turnkey/sdk-server, sequential  ${(M / ((performance.now() - t) / 1000)).toFixed(1)} tx/s (${M} sends)`);
  }
  const fixtureSol = "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96";
  const { PublicKey } = await import("@solana/web3.js");
  t = performance.now();
  for (let i = 0; i < M; i++) {
    const { value: bh } = await rpc("solana:mainnet", "getLatestBlockhash");
    const tx = new Transaction({ feePayer: new PublicKey(fixtureSol), recentBlockhash: bh.blockhash }).add(SystemProgram.transfer({ fromPubkey: new PublicKey(fixtureSol), toPubkey: dest, lamports: 2_000_000 + i }));
    await client.solSendTransaction({ unsignedTransaction: tx.serialize({ requireAllSignatures: false }).toString("hex"), signWiths: [fixtureSol], caip2: "solana:mainnet" });
  }
  console.log(`sol_send_transaction through @turnkey/sdk-server, sequential (with a getLatestBlockhash each)  ${(M / ((performance.now() - t) / 1000)).toFixed(1)} tx/s (${M} sends)`);
  await emu.stop();
}
