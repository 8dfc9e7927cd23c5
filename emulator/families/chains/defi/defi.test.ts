/**
 * The local DeFi set on an embedded chain whose blocks follow a clock the test moves: the vault
 * grows at its rate per second of block time, a wrapper keeps its fee out of the yield, the pool
 * pays out x·y=k less its fee. viem reads the chain; the expected numbers are computed here from
 * the formulas the contracts document.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, custom, defineChain, getContractAddress, maxUint256, parseAbi, type EIP1193RequestFn, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { Networks } from "../networks.js";
import type { EvmChain } from "../evm-chain.js";
import { EARN_WRAPPER_ABI, EARN_WRAPPER_BYTECODE } from "./artifact.js";

const CAIP2 = "eip155:84532";
const DAY = 86_400;
const OPERATOR = "0x060B30AbaB503D440acf29086a97289be889901f";
const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function approve(address,uint256) returns (bool)",
  "function faucet(address,uint256)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function deposit() payable",
]);
const vaultAbi = parseAbi([
  "function asset() view returns (address)",
  "function ratePerSecond() view returns (uint256)",
  "function totalAssets() view returns (uint256)",
  "function convertToAssets(uint256) view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
  "function deposit(uint256,address) returns (uint256)",
  "function redeem(uint256,address,address) returns (uint256)",
]);
const poolAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function feeBps() view returns (uint256)",
  "function getReserves() view returns (uint256,uint256)",
  "function swap(address,uint256,uint256,address) returns (uint256)",
]);

let clockMs = Date.UTC(2030, 0, 1);
const userKey = generatePrivateKey();
const user = privateKeyToAccount(userKey).address;
const feeWallet = privateKeyToAccount(generatePrivateKey()).address;
const networks = new Networks({ now: () => clockMs, fundedAccounts: () => ({ evm: [user], solana: [] }) });
let chain: EvmChain;
// The operator's first six deployments and the router, in the documented nonce order.
const [tusd, weth, , tusdVault, wethVault, pool, router] = [0, 1, 2, 3, 4, 5, 13].map((nonce) => getContractAddress({ from: OPERATOR, nonce: BigInt(nonce) })) as Hex[];
const routerAbi = parseAbi([
  "function weth() view returns (address)",
  "function swapExactTokensForETH(address pool, address tokenIn, uint256 amountIn, uint256 minOut, address to) returns (uint256)",
  "function swapExactETHForTokens(address pool, uint256 minOut, address to) payable returns (uint256)",
]);

function clients() {
  const transport = custom({
    request: (async ({ method, params }: { method: string; params?: unknown }) => {
      const res = await chain.handleRpc({ jsonrpc: "2.0", id: 1, method, params: params ?? [] });
      if ("error" in res) throw Object.assign(new Error(res.error.message), res.error);
      return res.result;
    }) as EIP1193RequestFn,
  });
  const viemChain = defineChain({ id: 84532, name: "local", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [] } } });
  return { reader: createPublicClient({ chain: viemChain, transport }), wallet: createWalletClient({ account: privateKeyToAccount(userKey), chain: viemChain, transport }) };
}

async function send(hash: Promise<Hex>) {
  const { reader } = clients();
  const receipt = await reader.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe("success");
  return receipt;
}
const blockTime = async (blockNumber: bigint) => (await clients().reader.getBlock({ blockNumber })).timestamp;

beforeAll(async () => {
  chain = await networks.defi(CAIP2);
}, 60_000);
afterAll(() => networks.close());

describe("local DeFi on an embedded chain", () => {
  it("is deployed at the operator's fixed addresses, and the fixture account holds 100,000 TUSD", async () => {
    const { reader } = clients();
    expect(await reader.readContract({ address: tusd, abi: erc20, functionName: "symbol" })).toBe("TUSD");
    expect(await reader.readContract({ address: tusd, abi: erc20, functionName: "decimals" })).toBe(6);
    expect(await reader.readContract({ address: weth, abi: erc20, functionName: "symbol" })).toBe("WETH");
    expect(await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "asset" })).toBe(tusd);
    expect(await reader.readContract({ address: wethVault, abi: vaultAbi, functionName: "asset" })).toBe(weth);
    expect(await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [user] })).toBe(100_000_000_000n);
    // A second use deploys nothing more.
    const nonce = await reader.getTransactionCount({ address: OPERATOR });
    await networks.defi(CAIP2);
    expect(await reader.getTransactionCount({ address: OPERATOR })).toBe(nonce);
  });

  it("blocks take the clock's time, and the vault grows 5% a year by the second", async () => {
    const { reader, wallet } = clients();
    const rate = await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "ratePerSecond" });
    expect(rate).toBe((500n * 10n ** 18n) / 10_000n / 31_536_000n); // 5% a year, simple, per second (1e18 = 100%)
    await send(wallet.writeContract({ address: tusd, abi: erc20, functionName: "approve", args: [tusdVault, maxUint256] }));
    const deposited = 10_000_000_000n; // 10,000 TUSD
    clockMs += 3_600_000; // a block takes the clock's time once the clock is ahead of its parent (each block is a second past its parent at least)
    const r1 = await send(wallet.writeContract({ address: tusdVault, abi: vaultAbi, functionName: "deposit", args: [deposited, user] }));
    const t1 = await blockTime(r1.blockNumber);
    expect(Number(t1)).toBe(Math.floor(clockMs / 1000));
    const ownedBefore = await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "totalAssets" });

    clockMs += 30 * DAY * 1000;
    await networks.clockMoved();
    const head = await reader.getBlock();
    expect(Number(head.timestamp)).toBe(Math.floor(clockMs / 1000));
    const elapsed = head.timestamp - t1;
    const expectedTotal = ownedBefore + (ownedBefore * rate * elapsed) / 10n ** 18n;
    expect(await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "totalAssets" })).toBe(expectedTotal);

    const shares = await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "balanceOf", args: [user] });
    const before = await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [user] });
    const r2 = await send(wallet.writeContract({ address: tusdVault, abi: vaultAbi, functionName: "redeem", args: [shares, user, user] }));
    const t2 = await blockTime(r2.blockNumber);
    const after = await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [user] });
    // The only depositor: it gets the whole debt, grown by the rate over the elapsed block time.
    expect(after - before).toBe(deposited + (deposited * rate * (t2 - t1)) / 10n ** 18n);
    expect(after - before).toBeGreaterThan(deposited + 40_000_000n); // ~41 TUSD over 30 days
  });

  it("a wrapper keeps its fee (bps of the yield) for the fee wallet and refuses deposits when switched off", async () => {
    const { reader, wallet } = clients();
    // The operator deploys wrappers; any account can deploy one for this check (it owns the switch then).
    const deployHash = await wallet.deployContract({
      abi: EARN_WRAPPER_ABI,
      bytecode: EARN_WRAPPER_BYTECODE,
      args: [tusdVault, user, feeWallet, 2_000n, getContractAddress({ from: OPERATOR, nonce: 2n }), 0n, "Earn test", "eTEST", 6],
    });
    const wrapper = (await send(Promise.resolve(deployHash))).contractAddress!;
    await send(wallet.writeContract({ address: tusd, abi: erc20, functionName: "approve", args: [wrapper, maxUint256] }));
    const deposited = 5_000_000_000n;
    const r1 = await send(wallet.writeContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "deposit", args: [deposited, user] }));
    const vaultTotal1 = await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "totalAssets", blockNumber: r1.blockNumber });
    const gross1 = await reader.readContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "grossAssets", blockNumber: r1.blockNumber });
    const rate = await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "ratePerSecond" });

    clockMs += 30 * DAY * 1000;
    await networks.clockMoved();
    const head = await reader.getBlock();
    const elapsed = head.timestamp - (await blockTime(r1.blockNumber));
    // The vault grew by its rate; the wrapper's share of that growth is in proportion to its part of the vault.
    const vaultTotal2 = vaultTotal1 + (vaultTotal1 * rate * elapsed) / 10n ** 18n;
    expect(await reader.readContract({ address: tusdVault, abi: vaultAbi, functionName: "totalAssets" })).toBe(vaultTotal2);
    const gross2 = await reader.readContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "grossAssets" });
    expect(gross2).toBeGreaterThan(gross1);
    const fee = ((gross2 - gross1) * 2_000n) / 10_000n;
    expect(await reader.readContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "claimableFees" })).toBe(fee);
    expect(await reader.readContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "totalAssets" })).toBe(gross2 - fee);

    await send(wallet.writeContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "setDepositsDisabled", args: [true] }));
    await expect(reader.simulateContract({ account: user, address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "deposit", args: [1_000_000n, user] })).rejects.toThrow(/deposits are disabled/);

    // Withdrawing everything still works, and the fee stays for the fee wallet.
    const shares = await reader.readContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "balanceOf", args: [user] });
    const before = await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [user] });
    await send(wallet.writeContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "redeem", args: [shares, user, user] }));
    const got = (await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [user] })) - before;
    expect(got).toBeGreaterThan(deposited);
    const claimable = await reader.readContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "claimableFees" });
    expect(claimable).toBeGreaterThanOrEqual(fee);
    // Depositor's yield : fee = 80 : 20 (to a unit of rounding per interaction).
    const fourTimesFee = claimable * 4n;
    expect(got - deposited - fourTimesFee <= 4n && fourTimesFee - (got - deposited) <= 4n).toBe(true);
    await send(wallet.writeContract({ address: wrapper, abi: EARN_WRAPPER_ABI, functionName: "claimFees" }));
    expect(await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [feeWallet] })).toBe(claimable);
  });

  it("the pool pays x·y=k less its 0.30% fee, and its reserves follow", async () => {
    const { reader, wallet } = clients();
    expect(await reader.readContract({ address: pool, abi: poolAbi, functionName: "token0" })).toBe(tusd);
    expect(await reader.readContract({ address: pool, abi: poolAbi, functionName: "token1" })).toBe(weth);
    expect(await reader.readContract({ address: pool, abi: poolAbi, functionName: "feeBps" })).toBe(30n);
    const [r0, r1] = await reader.readContract({ address: pool, abi: poolAbi, functionName: "getReserves" });
    expect([r0, r1]).toEqual([3_000_000_000_000n, 1_000n * 10n ** 18n]); // seeded: 3,000 TUSD per WETH
    await send(wallet.writeContract({ address: tusd, abi: erc20, functionName: "approve", args: [pool, maxUint256] }));
    const amountIn = 3_000_000_000n; // 3,000 TUSD
    const expectedOut = (amountIn * 9_970n * r1) / (r0 * 10_000n + amountIn * 9_970n);
    await expect(reader.simulateContract({ account: user, address: pool, abi: poolAbi, functionName: "swap", args: [tusd, amountIn, expectedOut + 1n, user] })).rejects.toThrow(/output below minimum/);
    const wethBefore = await reader.readContract({ address: weth, abi: erc20, functionName: "balanceOf", args: [user] });
    await send(wallet.writeContract({ address: pool, abi: poolAbi, functionName: "swap", args: [tusd, amountIn, expectedOut, user] }));
    expect((await reader.readContract({ address: weth, abi: erc20, functionName: "balanceOf", args: [user] })) - wethBefore).toBe(expectedOut);
    expect(await reader.readContract({ address: pool, abi: poolAbi, functionName: "getReserves" })).toEqual([r0 + amountIn, r1 - expectedOut]);
    expect(await reader.getBalance({ address: weth })).toBe(2_000n * 10n ** 18n); // the ether behind the vault's and the pool's WETH
  });

  it("the router swaps TUSD to ether and ether to TUSD through the pool, at the pool's price, keeping nothing", async () => {
    const { reader, wallet } = clients();
    expect(await reader.readContract({ address: router, abi: routerAbi, functionName: "weth" })).toBe(weth);
    await send(wallet.writeContract({ address: tusd, abi: erc20, functionName: "approve", args: [router, maxUint256] }));
    const [r0, r1] = await reader.readContract({ address: pool, abi: poolAbi, functionName: "getReserves" });
    const amountIn = 1_500_000_000n; // 1,500 TUSD
    const expectedOut = (amountIn * 9_970n * r1) / (r0 * 10_000n + amountIn * 9_970n);
    await expect(reader.simulateContract({ account: user, address: router, abi: routerAbi, functionName: "swapExactTokensForETH", args: [pool, tusd, amountIn, expectedOut + 1n, user] })).rejects.toThrow(/output below minimum/);
    // WETH in is not a swap to ether, and the router takes ether only from WETH.
    await expect(reader.simulateContract({ account: user, address: router, abi: routerAbi, functionName: "swapExactTokensForETH", args: [pool, weth, 1n, 0n, user] })).rejects.toThrow(/unwrap it/);
    await expect(reader.call({ account: user, to: router, value: 1n })).rejects.toThrow(/ether only from WETH/);

    const etherBefore = await reader.getBalance({ address: user });
    const receipt = await send(wallet.writeContract({ address: router, abi: routerAbi, functionName: "swapExactTokensForETH", args: [pool, tusd, amountIn, expectedOut, user] }));
    expect((await reader.getBalance({ address: user })) - etherBefore).toBe(expectedOut - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await reader.readContract({ address: pool, abi: poolAbi, functionName: "getReserves" })).toEqual([r0 + amountIn, r1 - expectedOut]);

    const etherIn = 10n ** 17n;
    const tusdOut = (etherIn * 9_970n * (r0 + amountIn)) / ((r1 - expectedOut) * 10_000n + etherIn * 9_970n);
    const tusdBefore = await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [user] });
    await send(wallet.writeContract({ address: router, abi: routerAbi, functionName: "swapExactETHForTokens", args: [pool, tusdOut, user], value: etherIn }));
    expect((await reader.readContract({ address: tusd, abi: erc20, functionName: "balanceOf", args: [user] })) - tusdBefore).toBe(tusdOut);
    expect(await reader.readContract({ address: pool, abi: poolAbi, functionName: "getReserves" })).toEqual([r0 + amountIn - tusdOut, r1 - expectedOut + etherIn]);
    expect(await reader.getBalance({ address: router })).toBe(0n);
    expect(await reader.readContract({ address: weth, abi: erc20, functionName: "balanceOf", args: [router] })).toBe(0n);
  });

  it("an external node has no local DeFi: 501 naming the reason", async () => {
    const external = new Networks({ external: { "eip155:1": "http://127.0.0.1:9" } });
    await expect(external.defi("eip155:1")).rejects.toMatchObject({ message: expect.stringMatching(/external node http:\/\/127\.0\.0\.1:9, which has no local vaults or pools/) });
    await external.close();
  });
});
