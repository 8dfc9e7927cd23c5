/**
 * Funding an embedded EVM chain while other things happen on it: the dev methods only set a
 * balance, so a credit is a read then a write; concurrent credits and transactions landing in
 * between must not lose one another. viem (local signing, public client reads) is the oracle.
 */
import { describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, custom, defineChain, parseEther, type EIP1193RequestFn, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createEvmEngine } from "./evm-engine.js";
import { EvmChain } from "./evm-chain.js";
import { TEST_TOKEN_ABI, TEST_TOKEN_BYTECODE } from "../../../test/networks/test-token.artifact.js";

const CHAIN_ID = 31_337;

async function newChain(funded: Hex[]) {
  const engine = await createEvmEngine(
    CHAIN_ID,
    funded.map((address) => ({ address, balance: parseEther("100") })),
  );
  const chain = new EvmChain(`eip155:${CHAIN_ID}`, CHAIN_ID, { kind: "local" }, engine);
  // viem talks to the chain the way the JSON-RPC route does: through handleRpc.
  const transport = custom({
    request: (async ({ method, params }: { method: string; params?: unknown }) => {
      const res = await chain.handleRpc({ jsonrpc: "2.0", id: 1, method, params: params ?? [] });
      if ("error" in res) throw Object.assign(new Error(res.error.message), res.error);
      return res.result;
    }) as EIP1193RequestFn,
  });
  const viemChain = defineChain({ id: CHAIN_ID, name: "local", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [] } } });
  return { chain, reader: createPublicClient({ chain: viemChain, transport }), walletOf: (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), chain: viemChain, transport }) };
}

const amounts = Array.from({ length: 24 }, (_, i) => BigInt(1_000 * (i + 1) + 7));
const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);

describe("EvmChain.fund", () => {
  it("concurrent credits of the native coin and of an ERC-20 add up exactly", async () => {
    const deployerKey = generatePrivateKey();
    const deployer = privateKeyToAccount(deployerKey).address;
    const { chain, reader, walletOf } = await newChain([deployer]);
    try {
      const holder = privateKeyToAccount(generatePrivateKey()).address;
      const deploy = await walletOf(deployerKey).deployContract({ abi: TEST_TOKEN_ABI, bytecode: TEST_TOKEN_BYTECODE, args: ["Test Dollar", "TUSD", 6, 1_000_000n] });
      const token = (await reader.waitForTransactionReceipt({ hash: deploy })).contractAddress!;

      await Promise.all(amounts.flatMap((a) => [chain.fund(holder, a), chain.fund(holder, a, token)]));

      expect(await reader.getBalance({ address: holder })).toBe(sum(amounts));
      expect(await reader.readContract({ address: token, abi: TEST_TOKEN_ABI, functionName: "balanceOf", args: [holder] })).toBe(sum(amounts));
      // The token's other balances are untouched (the slot search put back what it tried).
      expect(await reader.readContract({ address: token, abi: TEST_TOKEN_ABI, functionName: "balanceOf", args: [deployer] })).toBe(1_000_000n);
    } finally {
      await chain.close();
    }
  });

  it("credits racing transfers out of the same account: none of either is lost", async () => {
    const key = generatePrivateKey();
    const sender = privateKeyToAccount(key).address;
    const { chain, reader, walletOf } = await newChain([sender]);
    try {
      const before = await reader.getBalance({ address: sender });
      const wallet = walletOf(key);
      const to = privateKeyToAccount(generatePrivateKey()).address;
      const values = amounts.slice(0, 12).map((a) => a * 10n ** 9n);
      // The transfers go one after the other (an automining chain refuses a nonce from the future); the credits all at once meanwhile.
      const sends = (async () => {
        const hashes: Hex[] = [];
        for (const value of values) hashes.push(await wallet.sendTransaction({ to, value, gas: 21_000n }));
        return hashes;
      })();
      const credits = amounts.map((a) => chain.fund(sender, a));
      const [hashes] = await Promise.all([sends, Promise.all(credits)]);
      const receipts = await Promise.all(hashes.map((hash) => reader.waitForTransactionReceipt({ hash })));
      expect(receipts.every((r) => r.status === "success")).toBe(true);
      const fees = sum(receipts.map((r) => r.gasUsed * r.effectiveGasPrice));
      expect(await reader.getBalance({ address: to })).toBe(sum(values));
      expect(await reader.getBalance({ address: sender })).toBe(before + sum(amounts) - sum(values) - fees);
    } finally {
      await chain.close();
    }
  });
});
