/**
 * Swaps on the local pools through @turnkey/sdk-server: upsert_swap_config's fee, create_swap_quote
 * priced from the pool's reserves, execute_swap sent as a gas-station batch (own gas or sponsored,
 * with the nonces given; ether in or out through the local router), get_swap_status following it, and claim_swap_fees paying the client fee
 * out to the receiver. viem reads the chain as the oracle: the pool's reserves, the balances of the
 * account, of the fee receiver and of the service, and a swap's output against the quote.
 * The expected numbers come from the formulas the documents give (the pool's x·y=k, fees in basis
 * points of the output, the floor after slippage).
 */
import { describe, expect, it, vi } from "vitest";
import { createPublicClient, http, parseAbi, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { advanceClock, newP256KeyPair, rawPost, refusal, sdkClient, storeCounts, submitBody, violatedField } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { deliveries } from "./webhooks/support.js";

const CAIP2 = "eip155:84532";
// The fixture wallet's first two Ethereum accounts (Anvil's / Hardhat's accounts 0 and 1).
const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
// docs/networks.md: the local DeFi set's addresses on every local chain, and the service's DeFi operator.
const TUSD = "0x5F23465BAFf78DC25B29B23D69A5284e8160429D";
const WETH = "0x136E2680e3D1b7Bb12239A17843c7388ddF31ff4";
const POOL = "0x420194F9C6B85d8bF0086F972b6763B7788954bF";
const ROUTER = "0x08d231cC109a0E52c1ce1e0CbC257d00BAdc1258";
const OPERATOR = "0x060B30AbaB503D440acf29086a97289be889901f";
const tusd = `${CAIP2}/erc20:${TUSD.toLowerCase()}`;
const weth = `${CAIP2}/erc20:${WETH.toLowerCase()}`;
const ether = `${CAIP2}/slip44:60`;
// docs/swaps.md: Turnkey's fee (the documented default) and the pool's.
const TURNKEY_BPS = 20n;
const POOL_FEE_BPS = 30n;

const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);
const poolAbi = parseAbi(["function getReserves() view returns (uint256,uint256)"]);

const emu = useTestEmulator();
const chain = () => createPublicClient({ transport: http(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/rpc`) });
const balanceOf = (token: string, who: string) => chain().readContract({ address: token as Hex, abi: erc20, functionName: "balanceOf", args: [who as Hex] });
/** The pool's reserves as (TUSD, WETH): token0 is TUSD. */
const reserves = async () => {
  const [tusdReserve, wethReserve] = await chain().readContract({ address: POOL, abi: poolAbi, functionName: "getReserves" });
  return { tusdReserve, wethReserve };
};
/** Uniswap v2's formula, which the pool documents. */
const poolOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) => (amountIn * (10_000n - POOL_FEE_BPS) * reserveOut) / (reserveIn * 10_000n + amountIn * (10_000n - POOL_FEE_BPS));
/** docs/swaps.md's price: the pool's gross output, both fees in bps of it, what is left, and its floor after slippage. */
function priced(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, clientBps: bigint, slippageBps: bigint) {
  const gross = poolOut(amountIn, reserveIn, reserveOut);
  const turnkeyFee = (gross * TURNKEY_BPS) / 10_000n;
  const clientFee = (gross * clientBps) / 10_000n;
  const net = gross - turnkeyFee - clientFee;
  return { gross, turnkeyFee, clientFee, net, floor: (net * (10_000n - slippageBps)) / 10_000n };
}

async function settled(client: ReturnType<typeof sdkClient>, swapRequestId: string) {
  for (let i = 0; i < 200; i++) {
    const s = await client.getSwapStatus({ swapRequestId });
    if (s.status !== "PENDING") return s;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`swap ${swapRequestId} still PENDING`);
}

/** The intent that executes a quote, restating it. */
const restating = (q: { quoteId: string; outputAmount: string; minOutputAmount: string }, input: string, output: string, inputAmount: string, extra: Record<string, unknown> = {}) => ({
  quoteId: q.quoteId,
  inputToken: input,
  outputToken: output,
  inputAmount,
  quotedOutputAmount: q.outputAmount,
  minOutputAmount: q.minOutputAmount,
  sponsor: false,
  ...extra,
});

describe("swaps on the local pools", () => {
  it("quotes 3,000 TUSD -> WETH from the reserves, executes it, the output lands and the fees go where documented", async () => {
    const client = sdkClient(emu);
    const config = await client.upsertSwapConfig({ feeReceiverWalletAddress: RECEIVER, feeBps: "50" });
    expect(config).toMatchObject({ feeReceiverWalletAddress: RECEIVER, feeBps: "50" });
    const endpoint = await client.createWebhookEndpoint({ name: "swap balances", url: "http://127.0.0.1:9/never-delivered", subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }] } as never);
    expect(endpoint).toBeDefined();

    const amountIn = 3_000n * 10n ** 6n;
    const { quotes } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: amountIn.toString(), slippageBps: "100" });
    expect(quotes).toHaveLength(1);
    const q = quotes[0]!;
    const before = await reserves();
    const { gross, turnkeyFee, clientFee, net, floor } = priced(amountIn, before.tusdReserve, before.wethReserve, 50n, 100n);
    expect(q).toMatchObject({ outputAmount: net.toString(), minOutputAmount: floor.toString(), slippageBps: "100", clientFeeBps: "50" });
    expect(q.quoteId).toMatch(/^sq_v1_[0-9a-f]{64}$/);
    expect(Number(q.expiresAt)).toBeGreaterThan(Date.now());

    const wethBefore = await balanceOf(WETH, FROM);
    const tusdBefore = await balanceOf(TUSD, FROM);
    const operatorBefore = await balanceOf(WETH, OPERATOR);
    const executed = await client.executeSwap(restating(q, tusd, weth, amountIn.toString()));
    expect(executed.activity.type).toBe("ACTIVITY_TYPE_EXECUTE_SWAP_V2");
    expect(executed.swapRequestId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(executed.quoteId).toBe(q.quoteId);

    const status = await settled(client, executed.swapRequestId);
    expect(status).toMatchObject({ status: "COMPLETED", swapKind: "SAME_CHAIN", inputToken: tusd, outputToken: weth, inputAmount: amountIn.toString(), outputAmount: net.toString() });
    const receipt = await chain().getTransactionReceipt({ hash: status.originTxHash as Hex });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(FROM.toLowerCase());

    // The chain agrees: the account paid the input and received the net output, within the quote's floor.
    const received = (await balanceOf(WETH, FROM)) - wethBefore;
    expect(received).toBe(net);
    expect(received).toBeGreaterThanOrEqual(BigInt(q.minOutputAmount));
    expect(tusdBefore - (await balanceOf(TUSD, FROM))).toBe(amountIn);
    // The pool took the whole input and paid the gross output; Turnkey's fee went to the service.
    const after = await reserves();
    expect(after.tusdReserve - before.tusdReserve).toBe(amountIn);
    expect(before.wethReserve - after.wethReserve).toBe(gross);
    expect((await balanceOf(WETH, OPERATOR)) - operatorBefore).toBe(turnkeyFee);

    // The client fee accrued to the receiver's fee vault; claim_swap_fees pays it out to the receiver.
    const receiverBefore = await balanceOf(WETH, RECEIVER);
    const claim = await client.claimSwapFees({});
    expect(claim.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(claim.requestId).toEqual(expect.any(String));
    expect((await balanceOf(WETH, RECEIVER)) - receiverBefore).toBe(clientFee);
    // Nothing is left to claim: a second claim pays nothing.
    await client.claimSwapFees({});
    expect((await balanceOf(WETH, RECEIVER)) - receiverBefore).toBe(clientFee);

    // Balances and balance events show the movements.
    const held = await client.getWalletAddressBalances({ address: FROM, caip2: CAIP2 });
    expect(held.balances).toContainEqual(expect.objectContaining({ caip19: weth, symbol: "WETH", balance: (wethBefore + net).toString() }));
    // The control route the UI's wallets tab reads: the same holdings, as viem reads them.
    const holdings = (await (await fetch(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/holdings/${FROM}`)).json()) as { holdings: { caip19: string; balance: string }[] };
    expect(holdings.holdings).toContainEqual(expect.objectContaining({ caip19: weth, balance: (await balanceOf(WETH, FROM)).toString() }));
    expect(holdings.holdings).toContainEqual(expect.objectContaining({ caip19: tusd, balance: (await balanceOf(TUSD, FROM)).toString() }));
    await vi.waitFor(
      async () => {
        const ds = (await deliveries(emu)).filter((d) => d.eventType === "BALANCE_CONFIRMED_UPDATES");
        // In the swap's transaction the account receives the pool's gross output and pays both fees out of it.
        const ofSwap = (symbol: string, operation: string) => ds.find((d) => d.payload.msg.txHash === status.originTxHash && d.payload.msg.address === FROM && d.payload.msg.asset.symbol === symbol && d.payload.msg.operation === operation)?.payload.msg;
        expect(ofSwap("WETH", "deposit")).toMatchObject({ asset: { amount: gross.toString() } });
        expect(ofSwap("WETH", "withdraw")).toMatchObject({ asset: { amount: (turnkeyFee + clientFee).toString() } });
        expect(ofSwap("TUSD", "withdraw")).toMatchObject({ asset: { amount: amountIn.toString() } });
        expect(ds.find((d) => d.payload.msg.address === RECEIVER && d.payload.msg.asset.symbol === "WETH")?.payload.msg).toMatchObject({ operation: "deposit", asset: { amount: clientFee.toString() } });
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("a sub-organization's wallet swaps ether for TUSD, sponsored, under the parent's fee; the account's ether moves by the input only", async () => {
    const parent = sdkClient(emu);
    await parent.upsertSwapConfig({ feeReceiverWalletAddress: RECEIVER, feeBps: "30" });
    const key = newP256KeyPair();
    const sub = await parent.createSubOrganization({
      subOrganizationName: "swapper",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: "w", accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }] },
    });
    const user = sdkClient(emu, key, sub.subOrganizationId);
    const account = sub.wallet!.addresses[0]!;
    const funded = await fetch(`${emu.info.baseUrl}/emulator/v1/chains/${CAIP2}/fund`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address: account, amount: parseEther("2").toString() }) });
    expect(funded.status).toBe(200);

    // Sub-organizations use the parent's configuration and cannot set their own or claim.
    expect(violatedField(await refusal(user.upsertSwapConfig({ feeBps: "10" })))).toBe("organizationId");
    expect(violatedField(await refusal(user.claimSwapFees({})))).toBe("organizationId");

    const amountIn = parseEther("1");
    const { quotes } = await user.createSwapQuote({ signWith: account, inputToken: ether, outputToken: tusd, inputAmount: amountIn.toString() });
    const q = quotes[0]!;
    const before = await reserves();
    const gross = poolOut(amountIn, before.wethReserve, before.tusdReserve);
    const net = gross - (gross * TURNKEY_BPS) / 10_000n - (gross * 30n) / 10_000n;
    // No slippage asked: the emulator's default of 50 bps.
    expect(q).toMatchObject({ outputAmount: net.toString(), minOutputAmount: ((net * 9_950n) / 10_000n).toString(), slippageBps: "50", clientFeeBps: "30" });

    // A sponsored swap takes no EVM nonce.
    const withNonce = await refusal(user.executeSwap(restating(q, ether, tusd, amountIn.toString(), { sponsor: true, evmNonce: "0" })));
    expect(violatedField(withNonce)).toBe("parameters.evmNonce");

    const etherBefore = await chain().getBalance({ address: account as Hex });
    const executed = await user.executeSwap(restating(q, ether, tusd, amountIn.toString(), { sponsor: true, gasStationNonce: "0" }));
    const status = await settled(user, executed.swapRequestId);
    expect(status).toMatchObject({ status: "COMPLETED", outputAmount: net.toString() });
    const tx = await chain().getTransaction({ hash: status.originTxHash as Hex });
    expect(tx.from.toLowerCase()).not.toBe(account.toLowerCase()); // the gas station sent it
    expect(tx.type).toBe("eip7702");
    expect(etherBefore - (await chain().getBalance({ address: account as Hex }))).toBe(amountIn);
    expect(await balanceOf(TUSD, account)).toBe(net);
    const after = await reserves();
    expect(after.wethReserve - before.wethReserve).toBe(amountIn);
    expect(before.tusdReserve - after.tusdReserve).toBe(gross);
    expect(await parent.getSwapStatus({ swapRequestId: executed.swapRequestId }).catch((e: { code: number }) => e.code)).toBe(5); // another organization's swap
  });

  it("swaps TUSD to ether through the router: the account's ether grows by the quoted output (less the gas it paid, or exactly when sponsored)", async () => {
    const client = sdkClient(emu);
    await client.upsertSwapConfig({ feeReceiverWalletAddress: RECEIVER, feeBps: "40" });
    await client.claimSwapFees({}); // the vault starts empty: the next claim pays this swap's fee only
    await client.createWebhookEndpoint({ name: "ether swap balances", url: "http://127.0.0.1:9/never-delivered", subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }] } as never);
    const ethBalance = (address: string) => chain().getBalance({ address: address as Hex });

    for (const sponsor of [false, true]) {
      const amountIn = 6_000n * 10n ** 6n;
      const { quotes } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: ether, inputAmount: amountIn.toString(), slippageBps: "100" });
      const q = quotes[0]!;
      const before = await reserves();
      const { gross, turnkeyFee, clientFee, net, floor } = priced(amountIn, before.tusdReserve, before.wethReserve, 40n, 100n);
      expect(q).toMatchObject({ outputAmount: net.toString(), minOutputAmount: floor.toString(), clientFeeBps: "40" });

      const [etherBefore, tusdBefore, wethBefore, operatorBefore] = await Promise.all([ethBalance(FROM), balanceOf(TUSD, FROM), balanceOf(WETH, FROM), ethBalance(OPERATOR)]);
      const executed = await client.executeSwap(restating(q, tusd, ether, amountIn.toString(), { sponsor }));
      const status = await settled(client, executed.swapRequestId);
      expect(status, `sponsor: ${sponsor}`).toMatchObject({ status: "COMPLETED", inputToken: tusd, outputToken: ether, outputAmount: net.toString() });
      const receipt = await chain().getTransactionReceipt({ hash: status.originTxHash as Hex });
      expect(receipt.status).toBe("success");
      const gasPaid = sponsor ? 0n : receipt.gasUsed * receipt.effectiveGasPrice;
      expect(receipt.from.toLowerCase() === FROM.toLowerCase()).toBe(!sponsor);

      // The account: ether up by the quoted output (at least the floor) less its gas, TUSD down by the input, no WETH left behind.
      const received = (await ethBalance(FROM)) - etherBefore + gasPaid;
      expect(received).toBe(net);
      expect(received).toBeGreaterThanOrEqual(BigInt(q.minOutputAmount));
      expect(tusdBefore - (await balanceOf(TUSD, FROM))).toBe(amountIn);
      expect(await balanceOf(WETH, FROM)).toBe(wethBefore);
      // The pool: x·y=k with its fee on the input; the router keeps neither ether nor WETH.
      const after = await reserves();
      expect(after.tusdReserve - before.tusdReserve).toBe(amountIn);
      expect(before.wethReserve - after.wethReserve).toBe(gross);
      expect(after.tusdReserve * after.wethReserve).toBeGreaterThanOrEqual(before.tusdReserve * before.wethReserve);
      expect(await ethBalance(ROUTER)).toBe(0n);
      expect(await balanceOf(WETH, ROUTER)).toBe(0n);
      // Turnkey's fee reached the service's account as ether; the client fee accrued as WETH and a claim pays it out.
      expect((await ethBalance(OPERATOR)) - operatorBefore).toBe(turnkeyFee);
      const receiverBefore = await balanceOf(WETH, RECEIVER);
      await client.claimSwapFees({});
      expect((await balanceOf(WETH, RECEIVER)) - receiverBefore).toBe(clientFee);

      // Balance events: the router's ether (an internal transfer) comes in, both fees go out, and the TUSD input.
      await vi.waitFor(
        async () => {
          const ds = (await deliveries(emu)).filter((d) => d.eventType === "BALANCE_CONFIRMED_UPDATES" && d.payload.msg.txHash === status.originTxHash && d.payload.msg.address === FROM);
          const of = (caip19: string, operation: string) => ds.find((d) => d.payload.msg.asset.caip19 === caip19 && d.payload.msg.operation === operation)?.payload.msg;
          expect(of(ether, "deposit")).toMatchObject({ asset: { amount: gross.toString() } });
          expect(of(ether, "withdraw")).toMatchObject({ asset: { amount: (turnkeyFee + clientFee).toString() } });
          expect(of(tusd, "withdraw")).toMatchObject({ asset: { amount: amountIn.toString() } });
        },
        { timeout: 10_000, interval: 50 },
      );
    }
  });

  it("a swap to ether whose pool moved below the floor fails before broadcast, and the account keeps its TUSD", async () => {
    const client = sdkClient(emu);
    const amountIn = (100n * 10n ** 6n).toString();
    const { quotes } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: ether, inputAmount: amountIn, slippageBps: "0" });
    const { quotes: big } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: ether, inputAmount: (10_000n * 10n ** 6n).toString() });
    await settled(client, (await client.executeSwap(restating(big[0]!, tusd, ether, (10_000n * 10n ** 6n).toString()))).swapRequestId);
    const tusdBefore = await balanceOf(TUSD, FROM);
    const stale = await client.executeSwap(restating(quotes[0]!, tusd, ether, amountIn));
    const failed = await client.getSwapStatus({ swapRequestId: stale.swapRequestId });
    expect(failed).toMatchObject({ status: "FAILED", error: { reason: "ORIGIN_TRANSACTION_FAILED" } });
    expect(failed.error?.message).toContain("minOutputAmount");
    expect(failed.originTxHash).toBeUndefined();
    expect(await balanceOf(TUSD, FROM)).toBe(tusdBefore);
  });

  it("refuses an intent that does not restate its quote, an expired quote and a second execution, naming the field and writing nothing", async () => {
    const client = sdkClient(emu);
    const amountIn = "1000000";
    const { quotes } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: amountIn });
    const q = quotes[0]!;
    const cases: [Record<string, unknown>, string][] = [
      [{ inputAmount: "1000001" }, "parameters.inputAmount"],
      [{ quotedOutputAmount: String(BigInt(q.outputAmount) + 1n) }, "parameters.quotedOutputAmount"],
      [{ minOutputAmount: "0" }, "parameters.minOutputAmount"],
      [{ outputToken: tusd }, "parameters.outputToken"],
      [{ inputToken: ether }, "parameters.inputToken"],
      [{ quoteId: "sq_v1_unknown" }, "parameters.quoteId"],
      [{ recentBlockhash: "11111111111111111111111111111111" }, "parameters.recentBlockhash"],
      [{ evmNonce: "x" }, "parameters.evmNonce"],
    ];
    for (const [change, field] of cases) {
      const before = storeCounts(emu);
      const r = await rawPost(emu, "/public/v1/submit/execute_swap", submitBody(emu, "ACTIVITY_TYPE_EXECUTE_SWAP_V2", { ...restating(q, tusd, weth, amountIn), ...change }));
      expect(r.status, JSON.stringify(change)).toBe(400);
      expect(JSON.stringify(r.json.details)).toContain(field);
      expect(storeCounts(emu)).toEqual(before);
    }
    // The older execute_swap intent is refused: requests must use ACTIVITY_TYPE_EXECUTE_SWAP_V2.
    const v1 = await rawPost(emu, "/public/v1/submit/execute_swap", submitBody(emu, "ACTIVITY_TYPE_EXECUTE_SWAP", { inputToken: tusd, outputToken: weth, inputAmount: amountIn, walletAccount: FROM, minOutputAmount: "1" }));
    expect(v1.status).toBe(400);

    const executed = await client.executeSwap(restating(q, tusd, weth, amountIn));
    expect((await settled(client, executed.swapRequestId)).status).toBe("COMPLETED");
    const again = await refusal(client.executeSwap(restating(q, tusd, weth, amountIn)));
    expect(violatedField(again)).toBe("parameters.quoteId");
    expect(again.message).toContain("already executed");

    const { quotes: later } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: amountIn });
    await advanceClock(emu, 61_000);
    const expired = await refusal(client.executeSwap(restating(later[0]!, tusd, weth, amountIn)));
    expect(violatedField(expired)).toBe("parameters.quoteId");
    expect(expired.message).toContain("expired");
  });

  it("a sponsored execution the gas station refuses writes nothing and leaves the quote to execute again", async () => {
    const client = sdkClient(emu);
    const amountIn = "1000000";
    const { quotes } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: amountIn });
    const q = quotes[0]!;
    const limits = (enabled: boolean) =>
      fetch(`${emu.url}/emulator/v1/gas-station/limits`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ organizationId: emu.info.organizationId, orgWindowLimitUsd: "100", subOrgWindowLimitUsd: "10", windowDurationMinutes: 1440, enabled }),
      });
    expect((await limits(false)).status).toBe(200);
    const before = storeCounts(emu);
    const refused = await refusal(client.executeSwap(restating(q, tusd, weth, amountIn, { sponsor: true })));
    expect(refused.message).toContain("gas sponsorship is disabled");
    expect(storeCounts(emu)).toEqual(before); // the quote taken while preparing was given back with the refusal
    expect((await limits(true)).status).toBe(200);
    const executed = await client.executeSwap(restating(q, tusd, weth, amountIn, { sponsor: true }));
    expect((await settled(client, executed.swapRequestId)).status).toBe("COMPLETED");
  });

  it("a swap whose pool moved below the floor fails before broadcast; a wrong gas-station nonce reverts on chain", async () => {
    const client = sdkClient(emu);
    const amountIn = (100n * 10n ** 6n).toString();
    const { quotes } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: amountIn, slippageBps: "0" });
    // Another swap moves the price against the first quote before it is executed.
    const { quotes: big } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: (10_000n * 10n ** 6n).toString() });
    await settled(client, (await client.executeSwap(restating(big[0]!, tusd, weth, (10_000n * 10n ** 6n).toString()))).swapRequestId);
    const reservesBefore = await reserves();
    const stale = await client.executeSwap(restating(quotes[0]!, tusd, weth, amountIn));
    expect(stale.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const failed = await client.getSwapStatus({ swapRequestId: stale.swapRequestId });
    expect(failed).toMatchObject({ status: "FAILED", error: { reason: "ORIGIN_TRANSACTION_FAILED" } });
    expect(failed.error?.message).toContain("minOutputAmount");
    expect(failed.originTxHash).toBeUndefined();
    expect(await reserves()).toEqual(reservesBefore);

    const { quotes: next } = await client.createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: amountIn });
    const replayed = await client.executeSwap(restating(next[0]!, tusd, weth, amountIn, { gasStationNonce: "0" }));
    const reverted = await settled(client, replayed.swapRequestId);
    expect(reverted).toMatchObject({ status: "FAILED", error: { reason: "ORIGIN_TRANSACTION_FAILED" } });
    expect(reverted.originTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await chain().getTransactionReceipt({ hash: reverted.originTxHash as Hex })).status).toBe("reverted");
    expect(reverted.error?.originTxError?.eth?.revertChain?.[0]?.custom?.errorName).toBe("InvalidNonce");
    expect(await reserves()).toEqual(reservesBefore);
  });

  it("answers 400 for a pair no local pool trades and 501 with the reason for what the local chains cannot offer", async () => {
    const client = sdkClient(emu);
    const quote = (inputToken: string, outputToken: string) => refusal(client.createSwapQuote({ signWith: FROM, inputToken, outputToken, inputAmount: "1000" }));
    const trwd = `${CAIP2}/erc20:0x9df3d963d6a711ed43e90012d0d8804c00a94576`;
    const noPool = await quote(tusd, trwd);
    expect(violatedField(noPool)).toBe("parameters.outputToken");
    expect(noPool.message).toContain("no local pool");
    expect(violatedField(await quote("eip155:84532/erc20:nope", weth))).toBe("parameters.inputToken");
    const crossChain = await quote(tusd, `eip155:11155111/erc20:${WETH.toLowerCase()}`);
    expect(crossChain.code).toBe(12);
    expect(crossChain.message).toContain("cross-chain");
    const unwrap = await quote(weth, ether);
    expect(violatedField(unwrap)).toBe("parameters.outputToken");
    expect(unwrap.message).toContain("withdraw");
    const solana = await quote("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/token:4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU");
    expect(solana.code).toBe(12);
    expect(solana.message).toContain("Solana swaps are not emulated");
    expect((await refusal(client.getSwapStatus({ swapRequestId: "sha256:00" }))).code).toBe(5);
  });
});

describe("swaps under policies", () => {
  it("a non-root user quotes only for the account a policy names, and executes only where a policy allows it", async () => {
    const root = sdkClient(emu);
    const key = newP256KeyPair();
    const { userIds } = await root.createUsers({ users: [{ userName: "trader", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    const trader = sdkClient(emu, key);
    const approver = `approvers.any(user, user.id == '${userIds[0]}')`;
    await root.createPolicy({ policyName: "trader quotes for FROM", effect: "EFFECT_ALLOW", condition: `activity.type == 'ACTIVITY_TYPE_CREATE_SWAP_QUOTE' && wallet_account.address == '${FROM}'`, consensus: approver, notes: "" });
    const quoteFor = (signWith: string) => trader.createSwapQuote({ signWith, inputToken: tusd, outputToken: weth, inputAmount: "1000000" });
    const { quotes } = await quoteFor(FROM);
    expect((await refusal(quoteFor(RECEIVER))).code).toBe(7);
    const execute = () => trader.executeSwap(restating(quotes[0]!, tusd, weth, "1000000"));
    expect((await refusal(execute())).code).toBe(7);
    await root.createPolicy({ policyName: "trader executes", effect: "EFFECT_ALLOW", condition: "activity.type == 'ACTIVITY_TYPE_EXECUTE_SWAP_V2'", consensus: approver, notes: "" });
    const { swapRequestId } = await execute();
    expect((await settled(trader, swapRequestId)).status).toBe("COMPLETED");
  });
});

describe("swaps against an external --chain node", () => {
  const external = useTestEmulator({ chains: { "eip155:84532": "http://127.0.0.1:9" } });
  it("answer 501: the node has no local pools", async () => {
    const e = await refusal(sdkClient(external).createSwapQuote({ signWith: FROM, inputToken: tusd, outputToken: weth, inputAmount: "1000" }));
    expect(e.code).toBe(12);
    expect(e.message).toContain("no local vaults or pools");
  });
});

describe("upsert_swap_config's fee receiver", () => {
  it("is an Ethereum account of the organization, and a fee is at most 500 bps", async () => {
    const client = sdkClient(emu);
    const stranger = privateKeyToAccount(`0x${"66".repeat(32)}`).address;
    expect(violatedField(await refusal(client.upsertSwapConfig({ feeReceiverWalletAddress: stranger })))).toBe("parameters.feeReceiverWalletAddress");
    expect(violatedField(await refusal(client.upsertSwapConfig({ feeBps: "501" })))).toBe("parameters.feeBps");
    expect(violatedField(await refusal(client.upsertSwapConfig({ stableFeeBps: "501" })))).toBe("parameters.stableFeeBps");
  });
});
