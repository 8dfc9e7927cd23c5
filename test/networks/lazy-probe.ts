/**
 * Run in a fresh process by lazy.test.ts: which chain engines are loaded after start-up,
 * and after the first use of each chain.
 */
import { createRequire } from "node:module";
import { startEmulator } from "../../emulator/index.js";

const cache = createRequire(import.meta.url).cache;
const loaded = () => ({
  edr: Object.keys(cache).some((k) => k.includes("@nomicfoundation/edr")),
  litesvm: Object.keys(cache).some((k) => k.includes("litesvm")),
});
const emu = await startEmulator({ port: 0 });
await fetch(`${emu.url}/emulator/v1/info`);
const afterStart = loaded();
const rpc = (caip2: string, method: string) =>
  fetch(`${emu.url}/emulator/v1/chains/${caip2}/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method }) });
await rpc("eip155:1", "eth_chainId");
const afterEvm = loaded();
await rpc("solana:mainnet", "getSlot");
const afterSolana = loaded();
await emu.stop();
process.stdout.write(JSON.stringify({ afterStart, afterEvm, afterSolana }));
