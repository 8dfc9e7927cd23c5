/**
 * The embedded Solana cluster: LiteSVM (the Agave runtime in-process, with the System, SPL
 * Token and ATA programs built in) behind the JSON-RPC methods that `@solana/web3.js` and
 * `@solana/kit` use to read accounts, send a transaction and confirm it. LiteSVM executes a
 * transaction at once; slots, signature statuses, transaction records and the held-back
 * queue (automine off) are kept here. Loaded on the first use of a Solana chain only.
 */
import { createRequire } from "node:module";
import { base58, base64 } from "@scure/base";
import { RpcCode, RpcError, rpcFailure, rpcResult, type JsonRpcRequest, type JsonRpcResponse, type RpcTransport } from "./rpc.js";
import { parseSolanaTransaction, signatureOf, type SolanaTx } from "./solana-wire.js";
import { solanaErrorJson, solanaErrorMessage } from "./solana-errors.js";
import { associatedTokenAddress, readMint, readTokenAccount, setMintSupply, setTokenAmount, MINT_SIZE, TOKEN_2022_PROGRAM, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM, tokenAccountData } from "./solana-token.js";

type SvmAccount = { lamports(): bigint; data(): Uint8Array; owner(): Uint8Array; executable(): boolean; rentEpoch(): bigint };
type SvmMeta = {
  signature(): Uint8Array;
  logs(): string[];
  innerInstructions(): { instruction(): { programIdIndex(): number; accounts(): Uint8Array; data(): Uint8Array }; stackHeight(): number }[][];
  computeUnitsConsumed(): bigint;
  returnData(): { programId(): Uint8Array; data(): Uint8Array };
};
type SvmFailed = { err(): unknown; meta(): SvmMeta };
type SvmResult = SvmMeta | SvmFailed;
type LiteSvm = {
  getAccount(pubkey: Uint8Array): SvmAccount | null;
  setAccount(pubkey: Uint8Array, account: SvmAccount): void;
  getBalance(pubkey: Uint8Array): bigint | null;
  latestBlockhash(): string;
  expireBlockhash(): void;
  setBlockhashCheck(on: boolean): void;
  minimumBalanceForRentExemption(len: bigint): bigint;
  sendVersionedTransaction(bytes: Uint8Array): SvmResult;
  simulateVersionedTransaction(bytes: Uint8Array): { meta(): SvmMeta } | SvmFailed;
  setSigverify(on: boolean): void;
  airdrop(pubkey: Uint8Array, lamports: bigint): SvmResult | null;
  warpToSlot(slot: bigint): void;
  getClock(): { slot: bigint };
  getProgramAccounts(program: Uint8Array): { address: Uint8Array; account(): SvmAccount }[];
};
type LiteSvmBinding = { LiteSvm: new () => LiteSvm; Account: new (lamports: bigint, data: Uint8Array, owner: Uint8Array, executable: boolean, rentEpoch: bigint) => SvmAccount };

let binding: LiteSvmBinding | undefined;
/** The native binding itself (raw bytes in and out): LiteSVM's @solana/kit wrapper is not needed. */
function liteSvm(): LiteSvmBinding {
  binding ??= createRequire(import.meta.url)("litesvm/dist/internal.js") as LiteSvmBinding;
  return binding;
}

const SYSTEM_PROGRAM = new Uint8Array(32);
const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
const LAMPORTS_PER_SIGNATURE = 5000n;
/** How many blocks a blockhash stays usable (what getLatestBlockhash promises). */
const BLOCKHASH_VALIDITY = 150n;
const SLOTS_PER_EPOCH = 432_000n;
/** A validator's slot time: slots (and blockhashes) move on with the clock, as web3.js expects. */
const SLOT_MS = 400;

export type SolanaEvent = { type: "landed"; signature: string; slot: bigint; err: unknown | null } | { type: "slot"; slot: bigint };

type TxRecord = {
  signature: string;
  slot: bigint;
  blockTime: number;
  tx: SolanaTx;
  bytes: Uint8Array;
  accountKeys: string[];
  loaded: { writable: string[]; readonly: string[] };
  err: unknown | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  meta: SvmMeta;
};

export type SolanaEngineOptions = { genesisHash: string; accounts: { address: string; lamports: bigint }[]; now?: () => number };

export class SolanaEngine implements RpcTransport {
  private readonly svm: LiteSvm;
  private readonly records = new Map<string, TxRecord>();
  private readonly order: TxRecord[] = [];
  /** Transactions that never landed (failed to the status query, unknown to getSignatureStatuses). */
  private readonly rejected = new Map<string, TxRecord>();
  private queue: { tx: SolanaTx; bytes: Uint8Array; signature: string }[] = [];
  private slot: bigint;
  /** Blockhashes still accepted (the last 150 slots'), with the slot that made each. */
  private readonly recentBlockhashes = new Map<string, bigint>();
  /** Each slot's blockhash since genesis (for history and getBlock-like reads). */
  private readonly slotHashes = new Map<bigint, string>();
  private readonly firstSlot: bigint;
  private lastTick: number;
  private readonly listeners = new Set<(e: SolanaEvent) => void>();
  automine = true;

  constructor(private readonly opts: SolanaEngineOptions) {
    const { LiteSvm } = liteSvm();
    this.svm = new LiteSvm();
    // LiteSVM accepts only its latest blockhash; a cluster accepts any of the last 150. Checked here.
    this.svm.setBlockhashCheck(false);
    this.slot = this.svm.getClock().slot;
    this.recentBlockhashes.set(this.svm.latestBlockhash(), this.slot);
    this.firstSlot = this.slot;
    this.slotHashes.set(this.slot, this.svm.latestBlockhash());
    this.lastTick = this.now();
    for (const a of opts.accounts) this.fund(a.address, a.lamports);
  }

  /** Listens to landed transactions and new slots (for the websocket subscriptions). */
  subscribe(fn: (e: SolanaEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Whether a signature has landed: its slot and error, or null. */
  landed(signature: string): { slot: bigint; err: unknown | null } | null {
    const r = this.records.get(signature);
    return r ? { slot: r.slot, err: r.err } : null;
  }

  private emit(e: SolanaEvent): void {
    for (const fn of this.listeners) fn(e);
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** Moves the slot on with the clock (lazily, when someone looks). */
  tick(): void {
    const due = Math.floor((this.now() - this.lastTick) / SLOT_MS);
    if (due <= 0) return;
    this.lastTick += due * SLOT_MS;
    this.advance(BigInt(Math.min(due, 1000)));
  }

  async request(req: JsonRpcRequest): Promise<JsonRpcResponse> {
    this.tick();
    try {
      return rpcResult(req.id, this.dispatch(req.method, Array.isArray(req.params) ? req.params : req.params === undefined ? [] : [req.params]));
    } catch (err) {
      return rpcFailure(req.id, err instanceof RpcError ? err : new RpcError(RpcCode.INVALID_PARAMS, err instanceof Error ? err.message : String(err)));
    }
  }

  // ---- controls -------------------------------------------------------------------------

  /** Adds lamports to an account (creating a system account if there is none). */
  fund(address: string, lamports: bigint): void {
    const { Account } = liteSvm();
    const key = pubkey(address, "address");
    const a = this.svm.getAccount(key);
    this.svm.setAccount(key, a ? new Account(a.lamports() + lamports, a.data(), a.owner(), a.executable(), a.rentEpoch()) : new Account(lamports, new Uint8Array(0), SYSTEM_PROGRAM, false, 0n));
  }

  /** Adds SPL tokens of `mint` to the owner's associated token account (created if missing). */
  fundToken(owner: string, mint: string, amount: bigint): void {
    const { Account } = liteSvm();
    const mintAccount = this.svm.getAccount(pubkey(mint, "asset"));
    if (!mintAccount) throw new RpcError(RpcCode.INVALID_PARAMS, `mint ${mint} does not exist on this cluster`);
    const program = base58.encode(mintAccount.owner());
    if (program !== TOKEN_PROGRAM && program !== TOKEN_2022_PROGRAM) throw new RpcError(RpcCode.INVALID_PARAMS, `${mint} is not a token mint (owner ${program})`);
    if (program === TOKEN_2022_PROGRAM) throw new RpcError(RpcCode.INVALID_PARAMS, `funding Token-2022 mints is not supported; fund ${mint}'s holders with a mint_to transaction`);
    const ata = pubkey(associatedTokenAddress(owner, mint, program), "address");
    const existing = this.svm.getAccount(ata);
    let data: Uint8Array;
    if (existing) {
      data = Uint8Array.from(existing.data());
      setTokenAmount(data, readTokenAccount(data).amount + amount);
    } else data = tokenAccountData(mint, owner, amount);
    const rent = this.svm.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE));
    this.svm.setAccount(ata, new Account(existing?.lamports() ?? rent, data, mintAccount.owner(), false, existing?.rentEpoch() ?? 0n));
    const mintData = Uint8Array.from(mintAccount.data());
    setMintSupply(mintData, readMint(mintData).supply + amount);
    this.svm.setAccount(pubkey(mint, "asset"), new Account(mintAccount.lamports(), mintData, mintAccount.owner(), mintAccount.executable(), mintAccount.rentEpoch()));
  }

  /** The blockhash of a slot (the one transactions landing in it were executed under). */
  blockhashOf(slot: bigint): string | undefined {
    for (let s = slot; s >= this.firstSlot; s--) {
      const h = this.slotHashes.get(s);
      if (h) return h;
    }
    return undefined;
  }

  /** Every token account `owner` holds (Token and Token-2022 programs): mint, amount and the mint's decimals. */
  tokenHoldings(owner: string): { mint: string; amount: bigint; decimals: number }[] {
    const out: { mint: string; amount: bigint; decimals: number }[] = [];
    for (const program of [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) {
      for (const x of this.svm.getProgramAccounts(base58.decode(program))) {
        const d = x.account().data();
        // A token account is 165 bytes, or longer with AccountType::Account (2) at byte 165 (Token-2022 extensions).
        if (d.length < TOKEN_ACCOUNT_SIZE || (d.length > TOKEN_ACCOUNT_SIZE && d[TOKEN_ACCOUNT_SIZE] !== 2)) continue;
        const t = readTokenAccount(d);
        if (t.owner !== owner) continue;
        const m = this.svm.getAccount(base58.decode(t.mint));
        out.push({ mint: t.mint, amount: t.amount, decimals: m ? readMint(m.data()).decimals : 0 });
      }
    }
    return out;
  }

  /** Every token mint on the cluster (Token and Token-2022 programs) with its decimals. */
  mints(): { mint: string; decimals: number }[] {
    const out: { mint: string; decimals: number }[] = [];
    for (const program of [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) {
      for (const x of this.svm.getProgramAccounts(base58.decode(program))) {
        const d = x.account().data();
        // A mint is 82 bytes (Token-2022 mints with extensions are longer but never 165, a token account's size).
        if (d.length < MINT_SIZE || d.length === TOKEN_ACCOUNT_SIZE || (program === TOKEN_PROGRAM && d.length !== MINT_SIZE)) continue;
        if (program === TOKEN_2022_PROGRAM && d.length > MINT_SIZE && d[165] !== 1) continue; // AccountType::Mint
        out.push({ mint: base58.encode(x.address), decimals: readMint(d).decimals });
      }
    }
    return out;
  }

  tokenBalance(owner: string, mint: string): bigint {
    const a = this.svm.getAccount(pubkey(associatedTokenAddress(owner, mint), "address"));
    return a ? readTokenAccount(a.data()).amount : 0n;
  }

  /** Executes whatever is held back, then closes `blocks` slots. */
  mine(blocks = 1): void {
    this.tick();
    const held = this.queue;
    this.queue = [];
    for (const h of held) this.execute(h.tx, h.bytes, h.signature);
    this.advance(BigInt(Math.max(1, blocks)));
  }

  isPending(signature: string): boolean {
    return this.queue.some((q) => q.signature === signature);
  }

  // ---- JSON-RPC -------------------------------------------------------------------------

  private dispatch(method: string, p: unknown[]): unknown {
    const ctx = { slot: Number(this.slot), apiVersion: "2.2.0" };
    switch (method) {
      case "getHealth":
        return "ok";
      case "getVersion":
        return { "solana-core": "2.2.0", "feature-set": 0 };
      case "getGenesisHash":
        return this.opts.genesisHash;
      case "getIdentity":
        return { identity: "11111111111111111111111111111111" };
      case "getSlot":
      case "getBlockHeight":
        return Number(this.slot);
      case "getTransactionCount":
        return this.order.length;
      case "getFirstAvailableBlock":
        return 0;
      case "getEpochInfo":
        return { absoluteSlot: Number(this.slot), blockHeight: Number(this.slot), epoch: Number(this.slot / SLOTS_PER_EPOCH), slotIndex: Number(this.slot % SLOTS_PER_EPOCH), slotsInEpoch: Number(SLOTS_PER_EPOCH), transactionCount: this.order.length };
      case "getLatestBlockhash":
        return { context: ctx, value: { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: Number(this.slot + BLOCKHASH_VALIDITY) } };
      case "isBlockhashValid":
        return { context: ctx, value: typeof p[0] === "string" && this.recentBlockhashes.has(p[0]) };
      case "getMinimumBalanceForRentExemption":
        return Number(this.svm.minimumBalanceForRentExemption(BigInt(integer(p[0], "dataLength"))));
      case "getBalance":
        return { context: ctx, value: Number(this.svm.getBalance(pubkey(p[0], "pubkey")) ?? 0n) };
      case "getAccountInfo":
        return { context: ctx, value: this.accountJson(pubkey(p[0], "pubkey"), encodingOf(p[1])) };
      case "getMultipleAccounts":
        return { context: ctx, value: arrayOf(p[0], "pubkeys").map((k) => this.accountJson(pubkey(k, "pubkey"), encodingOf(p[1]))) };
      case "getFeeForMessage":
        return { context: ctx, value: Number(feeOf(parseMessageOnly(bytesOf(p[0], "base64", "message")))) };
      case "getRecentPrioritizationFees":
        return [];
      case "requestAirdrop":
        return this.airdrop(pubkey(p[0], "pubkey"), BigInt(integer(p[1], "lamports")));
      case "sendTransaction":
        return this.sendTransaction(p[0], (p[1] ?? {}) as { encoding?: string; skipPreflight?: boolean });
      case "simulateTransaction":
        return { context: ctx, value: this.simulate(p[0], (p[1] ?? {}) as { encoding?: string; sigVerify?: boolean; replaceRecentBlockhash?: boolean }) };
      case "getSignatureStatuses":
        return { context: ctx, value: arrayOf(p[0], "signatures").map((s) => this.statusJson(String(s))) };
      case "getTransaction":
        return this.transactionJson(String(p[0]), (p[1] ?? {}) as { encoding?: string; maxSupportedTransactionVersion?: number });
      case "getSignaturesForAddress":
        return this.signaturesFor(String(p[0]), (p[1] ?? {}) as { limit?: number; before?: string; until?: string });
      case "getTokenAccountBalance":
        return { context: ctx, value: this.tokenAmountJson(pubkey(p[0], "pubkey")) };
      case "getTokenAccountsByOwner":
        return { context: ctx, value: this.tokenAccountsByOwner(String(p[0]), (p[1] ?? {}) as { mint?: string; programId?: string }, encodingOf(p[2])) };
      default:
        throw new RpcError(RpcCode.METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  }

  private accountJson(key: Uint8Array, encoding: string) {
    const a = this.svm.getAccount(key);
    if (!a) return null;
    const data = a.data();
    return {
      lamports: Number(a.lamports()),
      owner: base58.encode(a.owner()),
      data: encoding === "base58" ? [base58.encode(data), "base58"] : [base64.encode(data), "base64"],
      executable: a.executable(),
      rentEpoch: Number(a.rentEpoch()),
      space: data.length,
    };
  }

  private airdrop(key: Uint8Array, lamports: bigint): string {
    const r = this.svm.airdrop(key, lamports);
    if (!r) throw new RpcError(RpcCode.INTERNAL, "airdrop failed");
    if ("err" in r) throw new RpcError(RpcCode.SERVER, `airdrop failed: ${solanaErrorMessage(solanaErrorJson(r.err() as never))}`);
    // LiteSVM's faucet transaction is not ours to record in full; remember its signature as a system transfer.
    const signature = base58.encode(r.signature());
    const rec: TxRecord = {
      signature,
      slot: this.slot,
      blockTime: this.blockTime(),
      tx: { signatures: [r.signature()], version: "legacy", header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 }, accountKeys: [key], recentBlockhash: base58.decode(this.svm.latestBlockhash()), instructions: [], addressTableLookups: [], message: new Uint8Array(), blockhashOffset: 0 },
      bytes: new Uint8Array(),
      accountKeys: [base58.encode(key)],
      loaded: { writable: [], readonly: [] },
      err: null,
      fee: 0n,
      preBalances: [],
      postBalances: [],
      meta: r,
    };
    this.remember(rec);
    return signature;
  }

  private sendTransaction(encoded: unknown, opts: { encoding?: string; skipPreflight?: boolean }): string {
    const bytes = bytesOf(encoded, opts.encoding ?? "base58", "transaction");
    const tx = parseTx(bytes);
    const signature = signatureOf(tx);
    if (!opts.skipPreflight) {
      const known = this.records.has(signature) || this.isPending(signature);
      const sim = known ? { err: "AlreadyProcessed", logs: [] as string[], unitsConsumed: 0 } : !this.blockhashOk(tx) ? { err: "BlockhashNotFound", logs: [] as string[], unitsConsumed: 0 } : this.simulateBytes(bytes);
      if (sim.err) {
        throw new RpcError(-32002, `Transaction simulation failed: ${solanaErrorMessage(sim.err)}`, { err: sim.err, logs: sim.logs, accounts: null, unitsConsumed: sim.unitsConsumed ?? 0, returnData: null });
      }
    }
    if (this.records.has(signature) || this.isPending(signature)) return signature;
    // Automine: it lands in the current slot (slots move on with the clock, many transactions each).
    if (this.automine) this.execute(tx, bytes, signature);
    else this.queue.push({ tx, bytes, signature });
    return signature;
  }

  private simulate(encoded: unknown, opts: { encoding?: string; sigVerify?: boolean; replaceRecentBlockhash?: boolean }) {
    let bytes = bytesOf(encoded, opts.encoding ?? "base58", "transaction");
    const tx = parseTx(bytes);
    let replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | undefined;
    if (opts.replaceRecentBlockhash) {
      bytes = Uint8Array.from(bytes);
      bytes.set(base58.decode(this.svm.latestBlockhash()), tx.blockhashOffset);
      replacementBlockhash = { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: Number(this.slot + BLOCKHASH_VALIDITY) };
    }
    const verify = opts.sigVerify ?? !opts.replaceRecentBlockhash;
    const r = opts.replaceRecentBlockhash || this.blockhashOk(tx) ? this.simulateBytes(bytes, verify) : { err: "BlockhashNotFound", logs: [] as string[], unitsConsumed: 0, returnData: null };
    return { err: r.err, logs: r.logs, accounts: null, unitsConsumed: r.unitsConsumed, returnData: r.returnData, ...(replacementBlockhash ? { replacementBlockhash } : {}) };
  }

  private simulateBytes(bytes: Uint8Array, sigVerify = true) {
    if (!sigVerify) this.svm.setSigverify(false);
    try {
      const r = this.svm.simulateVersionedTransaction(bytes);
      const failed = "err" in r;
      const meta = failed ? r.meta() : r.meta();
      return { err: failed ? solanaErrorJson(r.err() as never) : null, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()), returnData: returnDataJson(meta) };
    } finally {
      if (!sigVerify) this.svm.setSigverify(true);
    }
  }

  /** Runs one transaction and records its outcome (pre/post balances, fee, logs). */
  private execute(tx: SolanaTx, bytes: Uint8Array, signature: string): void {
    if (!this.blockhashOk(tx)) {
      this.rejected.set(signature, { signature, slot: this.slot, blockTime: this.blockTime(), tx, bytes, accountKeys: [], loaded: { writable: [], readonly: [] }, err: "BlockhashNotFound", fee: 0n, preBalances: [], postBalances: [], meta: emptyMeta(tx) });
      return;
    }
    const loaded = this.loadedAddresses(tx);
    const keys = [...tx.accountKeys.map((k) => base58.encode(k)), ...loaded.writable, ...loaded.readonly];
    const balances = () => keys.map((k) => this.svm.getBalance(base58.decode(k)) ?? 0n);
    const preBalances = balances();
    const r = this.svm.sendVersionedTransaction(bytes);
    const failed = "err" in r;
    const postBalances = balances();
    const err = failed ? solanaErrorJson(r.err() as never) : null;
    // A transaction that failed before execution (bad blockhash, no funds for the fee...) never lands.
    const landed = !failed || postBalances[0]! !== preBalances[0]!;
    const rec: TxRecord = {
      signature,
      slot: this.slot,
      blockTime: this.blockTime(),
      tx,
      bytes,
      accountKeys: keys,
      loaded,
      err,
      fee: failed ? preBalances[0]! - postBalances[0]! : feeOf(tx),
      preBalances,
      postBalances,
      meta: failed ? r.meta() : r,
    };
    if (landed) this.remember(rec);
    else this.rejected.set(signature, rec);
  }

  /** The transaction's blockhash is one of the last 150 slots' (or it advances a durable nonce). */
  private blockhashOk(tx: SolanaTx): boolean {
    if (this.recentBlockhashes.has(base58.encode(tx.recentBlockhash))) return true;
    const first = tx.instructions[0];
    const program = first && tx.accountKeys[first.programIdIndex];
    return !!program && program.every((b) => b === 0) && first.data.length >= 4 && first.data[0] === 4 && first.data[1] === 0; // SystemInstruction::AdvanceNonceAccount
  }

  private remember(rec: TxRecord): void {
    this.records.set(rec.signature, rec);
    this.order.push(rec);
    this.emit({ type: "landed", signature: rec.signature, slot: rec.slot, err: rec.err });
  }

  private advance(n: bigint): void {
    this.slot += n;
    this.svm.warpToSlot(this.slot);
    this.svm.expireBlockhash();
    this.recentBlockhashes.set(this.svm.latestBlockhash(), this.slot);
    this.slotHashes.set(this.slot, this.svm.latestBlockhash());
    for (const [hash, slot] of this.recentBlockhashes) {
      if (slot + BLOCKHASH_VALIDITY >= this.slot) break;
      this.recentBlockhashes.delete(hash);
    }
    this.emit({ type: "slot", slot: this.slot });
  }

  private blockTime(): number {
    return Math.floor(this.now() / 1000);
  }

  private loadedAddresses(tx: SolanaTx): { writable: string[]; readonly: string[] } {
    const writable: string[] = [];
    const readonly: string[] = [];
    for (const l of tx.addressTableLookups) {
      const table = this.svm.getAccount(l.accountKey);
      if (!table) continue; // the runtime reports AddressLookupTableNotFound
      const data = table.data();
      const at = (i: number) => base58.encode(data.subarray(56 + 32 * i, 88 + 32 * i));
      for (const i of l.writableIndexes) writable.push(at(i));
      for (const i of l.readonlyIndexes) readonly.push(at(i));
    }
    return { writable, readonly };
  }

  /** A transaction's record: landed or rejected. For the chain layer's status query. */
  record(signature: string): TxRecord | undefined {
    return this.records.get(signature) ?? this.rejected.get(signature);
  }

  private statusJson(signature: string) {
    const r = this.records.get(signature);
    if (!r) return null;
    return { slot: Number(r.slot), confirmations: null, err: r.err, status: r.err ? { Err: r.err } : { Ok: null }, confirmationStatus: "finalized" };
  }

  private transactionJson(signature: string, opts: { encoding?: string; maxSupportedTransactionVersion?: number }) {
    const r = this.records.get(signature);
    if (!r) return null;
    if (r.tx.version === 0 && opts.maxSupportedTransactionVersion === undefined) {
      throw new RpcError(-32015, "Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: \"maxSupportedTransactionVersion\": 0");
    }
    const t = r.tx;
    const encoding = opts.encoding ?? "json";
    const transaction =
      encoding === "base64"
        ? [base64.encode(r.bytes), "base64"]
        : encoding === "base58"
          ? [base58.encode(r.bytes), "base58"]
          : {
              signatures: t.signatures.map((s) => base58.encode(s)),
              message: {
                accountKeys: t.accountKeys.map((k) => base58.encode(k)),
                header: t.header,
                recentBlockhash: base58.encode(t.recentBlockhash),
                instructions: t.instructions.map((i) => ({ programIdIndex: i.programIdIndex, accounts: i.accounts, data: base58.encode(i.data), stackHeight: null })),
                ...(t.version === 0 ? { addressTableLookups: t.addressTableLookups.map((l) => ({ accountKey: base58.encode(l.accountKey), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })) } : {}),
              },
            };
    const inner = r.meta
      .innerInstructions()
      .map((list, index) => ({
        index,
        instructions: list.map((ii) => {
          const c = ii.instruction();
          return { programIdIndex: c.programIdIndex(), accounts: [...c.accounts()], data: base58.encode(c.data()), stackHeight: ii.stackHeight() };
        }),
      }))
      .filter((x) => x.instructions.length > 0);
    return {
      slot: Number(r.slot),
      blockTime: r.blockTime,
      version: t.version,
      transaction,
      meta: {
        err: r.err,
        status: r.err ? { Err: r.err } : { Ok: null },
        fee: Number(r.fee),
        preBalances: r.preBalances.map(Number),
        postBalances: r.postBalances.map(Number),
        innerInstructions: inner,
        logMessages: r.meta.logs(),
        preTokenBalances: [],
        postTokenBalances: [],
        rewards: [],
        loadedAddresses: r.loaded,
        computeUnitsConsumed: Number(r.meta.computeUnitsConsumed()),
        returnData: returnDataJson(r.meta),
      },
    };
  }

  private signaturesFor(address: string, opts: { limit?: number; before?: string; until?: string }) {
    const out = [];
    let started = !opts.before;
    for (let i = this.order.length - 1; i >= 0 && out.length < (opts.limit ?? 1000); i--) {
      const r = this.order[i]!;
      if (!started) {
        if (r.signature === opts.before) started = true;
        continue;
      }
      if (r.signature === opts.until) break;
      if (!r.accountKeys.includes(address)) continue;
      out.push({ signature: r.signature, slot: Number(r.slot), err: r.err, memo: null, blockTime: r.blockTime, confirmationStatus: "finalized" });
    }
    return out;
  }

  private tokenAmountJson(key: Uint8Array) {
    const a = this.svm.getAccount(key);
    if (!a || a.data().length < TOKEN_ACCOUNT_SIZE) throw new RpcError(RpcCode.INVALID_PARAMS, "Invalid param: not a Token account");
    const { mint, amount } = readTokenAccount(a.data());
    const m = this.svm.getAccount(base58.decode(mint));
    const decimals = m ? readMint(m.data()).decimals : 0;
    return uiAmount(amount, decimals);
  }

  private tokenAccountsByOwner(owner: string, filter: { mint?: string; programId?: string }, encoding: string) {
    const program = filter.programId ?? (filter.mint ? base58.encode(this.svm.getAccount(pubkey(filter.mint, "mint"))?.owner() ?? base58.decode(TOKEN_PROGRAM)) : TOKEN_PROGRAM);
    return this.svm
      .getProgramAccounts(base58.decode(program))
      .filter((x) => {
        const d = x.account().data();
        if (d.length < TOKEN_ACCOUNT_SIZE) return false;
        const t = readTokenAccount(d);
        return t.owner === owner && (!filter.mint || t.mint === filter.mint);
      })
      .map((x) => ({ pubkey: base58.encode(x.address), account: this.accountJson(x.address, encoding) }));
  }
}

function emptyMeta(tx: SolanaTx): SvmMeta {
  return {
    signature: () => tx.signatures[0]!,
    logs: () => [],
    innerInstructions: () => [],
    computeUnitsConsumed: () => 0n,
    returnData: () => ({ programId: () => new Uint8Array(32), data: () => new Uint8Array(0) }),
  };
}

function uiAmount(amount: bigint, decimals: number) {
  const s = amount.toString().padStart(decimals + 1, "0");
  const uiAmountString = decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, "") : s;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

function returnDataJson(meta: SvmMeta) {
  const rd = meta.returnData();
  const data = rd.data();
  return data.length ? { programId: base58.encode(rd.programId()), data: [base64.encode(data), "base64"] } : null;
}

/** Base fee (per signature) plus the priority fee that the compute-budget instructions ask for. */
export function feeOf(tx: Pick<SolanaTx, "header" | "accountKeys" | "instructions">): bigint {
  let price = 0n;
  let limit: bigint | undefined;
  let others = 0n;
  for (const ix of tx.instructions) {
    const program = tx.accountKeys[ix.programIdIndex];
    if (program && base58.encode(program) === COMPUTE_BUDGET_PROGRAM) {
      const v = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
      if (ix.data[0] === 2 && ix.data.length >= 5) limit = BigInt(v.getUint32(1, true));
      if (ix.data[0] === 3 && ix.data.length >= 9) price = v.getBigUint64(1, true);
    } else others++;
  }
  const units = limit ?? (others * 200_000n > 1_400_000n ? 1_400_000n : others * 200_000n);
  return LAMPORTS_PER_SIGNATURE * BigInt(tx.header.numRequiredSignatures) + (price * units + 999_999n) / 1_000_000n;
}

/** A message alone (getFeeForMessage): wrap it as an unsigned transaction to reuse the parser. */
function parseMessageOnly(message: Uint8Array): SolanaTx {
  const versioned = (message[0]! & 0x80) !== 0;
  const required = message[versioned ? 1 : 0]!;
  const tx = new Uint8Array(1 + 64 * required + message.length);
  tx[0] = required; // fits in one compact-u16 byte below 128 signatures
  tx.set(message, 1 + 64 * required);
  return parseTx(tx);
}

function parseTx(bytes: Uint8Array): SolanaTx {
  try {
    return parseSolanaTransaction(bytes);
  } catch (err) {
    throw new RpcError(RpcCode.INVALID_PARAMS, `invalid transaction: ${err instanceof Error ? err.message : err}`);
  }
}

function pubkey(v: unknown, name: string): Uint8Array {
  if (typeof v !== "string") throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: ${name} must be a base58 string`);
  let b: Uint8Array;
  try {
    b = base58.decode(v);
  } catch {
    throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: Invalid ${name}: ${v}`);
  }
  if (b.length !== 32) throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: WrongSize (${name} ${v})`);
  return b;
}

function integer(v: unknown, name: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: ${name} must be a non-negative integer`);
  return v;
}

function arrayOf(v: unknown, name: string): unknown[] {
  if (!Array.isArray(v)) throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: ${name} must be an array`);
  return v;
}

function bytesOf(v: unknown, encoding: string, name: string): Uint8Array {
  if (typeof v !== "string") throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: ${name} must be an encoded string`);
  try {
    if (encoding === "base64") return base64.decode(v);
    if (encoding === "base58") return base58.decode(v);
  } catch {
    throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: ${name} is not valid ${encoding}`);
  }
  throw new RpcError(RpcCode.INVALID_PARAMS, `Invalid param: unsupported encoding ${encoding}`);
}

function encodingOf(config: unknown): string {
  const e = (config as { encoding?: string } | undefined)?.encoding;
  return e === "base58" ? "base58" : "base64";
}
