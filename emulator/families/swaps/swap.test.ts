import { describe, expect, it } from "vitest";
import { parseCaip19 } from "../chains/index.js";
import { priceSwap, routeOf, swapCalls, poolMinimum, type SwapRoute } from "./swap.js";
import { feeVault } from "./fees.js";

const TUSD = "eip155:84532/erc20:0x5f23465baff78dc25b29b23d69a5284e8160429d";
const WETH = "eip155:84532/erc20:0x136e2680e3d1b7bb12239a17843c7388ddf31ff4";
const ETHER = "eip155:84532/slip44:60";
// docs/networks.md: the router (the operator's nonce 13), the service's account and a fee vault.
const ROUTER = "0x08d231cc109a0e52c1ce1e0cbc257d00badc1258";
const OPERATOR = "0x060B30AbaB503D440acf29086a97289be889901f";
const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const VAULT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
// docs/networks.md: the pool and the two tokens' addresses, written out (not read back from routeOf).
const POOL = "0x420194f9c6b85d8bf0086f972b6763b7788954bf";
const TUSD_ADDRESS = "0x5f23465baff78dc25b29b23d69a5284e8160429d";
const WETH_ADDRESS = "0x136e2680e3d1b7bb12239a17843c7388ddf31ff4";
const asset = (s: string) => parseCaip19(s, "f");

describe("priceSwap", () => {
  it("takes both fees out of the pool's x·y=k output, then the slippage floor, rounding down", () => {
    // 3,000 TUSD into 3,000,000 TUSD / 1,000 WETH at the pool's 30 bps.
    const amountIn = 3_000n * 10n ** 6n;
    const gross = (amountIn * 9_970n * 10n ** 21n) / (3n * 10n ** 12n * 10_000n + amountIn * 9_970n);
    const p = priceSwap(amountIn, 3n * 10n ** 12n, 10n ** 21n, 30n, { turnkeyBps: 20n, clientBps: 50n, slippageBps: 100n });
    expect(p.grossOutput).toBe(gross);
    expect(p.turnkeyFee).toBe((gross * 20n) / 10_000n);
    expect(p.clientFee).toBe((gross * 50n) / 10_000n);
    expect(p.outputAmount).toBe(gross - p.turnkeyFee - p.clientFee);
    expect(p.minOutputAmount).toBe((p.outputAmount * 9_900n) / 10_000n);
  });

  it("a slippage of 0 makes the floor the output", () => {
    const p = priceSwap(10n ** 18n, 10n ** 21n, 3n * 10n ** 12n, 30n, { turnkeyBps: 20n, clientBps: 0n, slippageBps: 0n });
    expect(p.minOutputAmount).toBe(p.outputAmount);
    expect(p.clientFee).toBe(0n);
  });
});

describe("routeOf", () => {
  it("routes TUSD/WETH either way through the pool, and ether in or out through WETH", () => {
    const r = routeOf(asset(TUSD), asset(WETH)) as SwapRoute;
    expect(r.pool.pool).toBe("0x420194F9C6B85d8bF0086F972b6763B7788954bF");
    expect([r.tokenIn.toLowerCase(), r.tokenOut.toLowerCase()]).toEqual([TUSD_ADDRESS, WETH_ADDRESS]);
    const fromEther = routeOf(asset(ETHER), asset(TUSD)) as SwapRoute;
    expect(fromEther.tokenIn.toLowerCase()).toBe(WETH_ADDRESS);
    const toEther = routeOf(asset(TUSD), asset(ETHER)) as SwapRoute;
    expect(toEther.pool.pool.toLowerCase()).toBe(POOL);
    expect(toEther.tokenOut.toLowerCase()).toBe(WETH_ADDRESS);
  });

  it("refuses what no pool trades (no-pool) and what the local chains cannot offer (unsupported)", () => {
    expect(routeOf(asset(TUSD), asset("eip155:84532/erc20:0x9df3d963d6a711ed43e90012d0d8804c00a94576"))).toMatchObject({ kind: "no-pool" });
    expect(routeOf(asset(TUSD), asset(TUSD))).toMatchObject({ kind: "no-pool" });
    expect(routeOf(asset(WETH), asset(ETHER))).toMatchObject({ kind: "no-pool", message: expect.stringContaining("withdraw") });
    expect(routeOf(asset(ETHER), asset(ETHER))).toMatchObject({ kind: "no-pool" });
    expect(routeOf(asset(TUSD), asset("eip155:1/erc20:0x136e2680e3d1b7bb12239a17843c7388ddf31ff4"))).toMatchObject({ kind: "unsupported" });
  });
});

describe("swapCalls", () => {
  const terms = { amountIn: 5n, minOutputAmount: 100n, turnkeyFee: 2n, clientFee: 3n };
  const feesTo = { turnkey: OPERATOR, client: VAULT } as const;
  const targets = (calls: { to: string }[]) => calls.map((c) => c.to.toLowerCase());

  it("approves the pool for exactly the input, raises the pool's minimum by the fees and pays each fee in the output token", () => {
    const r = routeOf(asset(TUSD), asset(WETH)) as SwapRoute;
    const calls = swapCalls(r, terms, FROM, feesTo);
    // approve TUSD for the pool, the pool's swap, then both fees paid in WETH.
    expect(targets(calls)).toEqual([TUSD_ADDRESS, POOL, WETH_ADDRESS, WETH_ADDRESS]);
    expect(calls.every((c) => c.value === 0n)).toBe(true);
    expect(poolMinimum(terms)).toBe(105n);
    expect(swapCalls(r, { ...terms, clientFee: 0n }, FROM, { turnkey: OPERATOR, client: undefined })).toHaveLength(3);
  });

  it("sends ether in with one router call", () => {
    const r = routeOf(asset(ETHER), asset(TUSD)) as SwapRoute;
    const calls = swapCalls(r, terms, FROM, feesTo);
    expect(targets(calls)).toEqual([ROUTER, TUSD_ADDRESS, TUSD_ADDRESS]);
    expect(calls[0]!.value).toBe(5n);
  });

  it("to ether: approves the router, which pays ether; Turnkey's fee leaves as ether, the client fee is wrapped for the vault", () => {
    const r = routeOf(asset(TUSD), asset(ETHER)) as SwapRoute;
    const calls = swapCalls(r, terms, FROM, feesTo);
    expect(targets(calls)).toEqual([TUSD_ADDRESS, ROUTER, OPERATOR.toLowerCase(), WETH_ADDRESS, WETH_ADDRESS]);
    expect(calls.map((c) => c.value)).toEqual([0n, 0n, 2n, 3n, 0n]);
    expect(calls[2]!.data).toBe("0x");
    expect(swapCalls(r, { ...terms, clientFee: 0n }, FROM, { turnkey: OPERATOR, client: undefined })).toHaveLength(3);
  });
});

describe("feeVault", () => {
  it("is one account per receiver, whatever the address's case", () => {
    const a = feeVault("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(feeVault("0x70997970c51812dc3a010c7d01b50e0d17dc79c8").address).toBe(a.address);
    expect(feeVault("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").address).not.toBe(a.address);
  });
});
