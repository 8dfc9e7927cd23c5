/**
 * `emulator replay`: sends a cassette's requests, in the order they arrived, to a fresh
 * emulator that starts as the recorded organization (organization.ts), and reports per
 * exchange the differences that matter (diff.ts) and the ledger rows it touches (ledger.ts).
 *
 * Each request is the recorded one with the recorded values mapped to the replay's
 * (mapping.ts): ids, addresses and fingerprints the replay's earlier answers gave, public keys
 * of the replay's own pairs (keys.ts), secrets the replay's answers gave (a verification token,
 * a session). It is stamped anew with the pair standing for the recorded stamping key. An OTP
 * code comes from the replay's mailbox. Before each request the emulated clock is moved to
 * the time it was recorded (never backwards after the first), so that expiries and approval
 * windows play out as they did.
 *
 * The target is an embedded emulator (default) or an emulator by URL, which is given the
 * recorded organization as a state file (`PUT /emulator/v1/state`).
 */
import { startEmulator, type RunningEmulator } from "../index.js";
import { FixtureError, parseFixture, type Fixture } from "../fixtures.js";
import type { Cassette, Exchange, Surface } from "./cassette.js";
import { compareAnswers, maskMessage, type Drift } from "./diff.js";
import { keyPairLike, isPublicKeyHex, stampWith, type KeyPair } from "./keys.js";
import { rowsTouched } from "./ledger.js";
import { ValueMap } from "./mapping.js";
import { initialOrganization, type InitialOrganization } from "./organization.js";
import { parseMarker, Redactor } from "./redact.js";
import { boundKeyOf, clientSignatureFor, fieldOf, otpTargetsIn, sealOtpBundle } from "./secrets.js";

export type ExchangeReport = {
  seq: number;
  surface: Surface;
  operation: string;
  outcome: "same" | "differ" | "not replayed";
  status: { recorded: number; replayed?: number };
  differences: Drift[];
  /** Ledger rows (docs/fidelity.md) the exchange touches: confirmed when it matches, named by its differences otherwise. */
  rows: string[];
  /** Why it was not replayed. */
  reason?: string;
};

export type ReplayReport = {
  cassette: { recordedAt: string; upstream: string; exchanges: number };
  target: string;
  exchanges: ExchangeReport[];
  summary: { exchanges: number; same: number; differ: number; notReplayed: number };
  /** Per ledger row, the exchanges that confirm it and those that contradict it. */
  ledger: Record<string, { confirmedBy: number[]; contradictedBy: number[] }>;
  notes: string[];
};

export type ReplayOptions = {
  /** "embedded" (default) or the base URL of a running emulator. */
  target?: string;
  onExchange?: (r: ExchangeReport) => void;
};

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export async function replayCassette(cassette: Cassette, options: ReplayOptions = {}): Promise<ReplayReport> {
  const initial = initialOrganization(cassette.exchanges);
  const notes = [...initial.notes];
  const fixture = acceptedFixture(initial.fixture, notes);
  const target = options.target && options.target !== "embedded" ? options.target.replace(/\/+$/, "") : undefined;
  let emu: RunningEmulator | undefined;
  let url: string;
  if (target) {
    await loadOnTarget(target, fixture);
    url = target;
  } else {
    emu = await startEmulator({ port: 0, fixtures: fixture });
    url = emu.url;
  }
  try {
    const replay = new Replay(url, initial, cassette.exchanges);
    await replay.mapInitialState();
    const exchanges: ExchangeReport[] = [];
    for (const [i, x] of cassette.exchanges.entries()) {
      const r = await replay.exchange(x, i);
      exchanges.push(r);
      options.onExchange?.(r);
    }
    return {
      cassette: { recordedAt: cassette.header.recordedAt, upstream: cassette.header.upstream, exchanges: cassette.exchanges.length },
      target: target ?? "embedded",
      exchanges,
      summary: {
        exchanges: exchanges.length,
        same: exchanges.filter((e) => e.outcome === "same").length,
        differ: exchanges.filter((e) => e.outcome === "differ").length,
        notReplayed: exchanges.filter((e) => e.outcome === "not replayed").length,
      },
      ledger: ledgerOf(exchanges),
      notes,
    };
  } finally {
    await emu?.stop();
  }
}

/** The fixture as the emulator accepts it: what it refuses (a policy it cannot compile, an account it cannot derive) is left out, with a note. */
function acceptedFixture(f: Fixture, notes: string[]): Fixture {
  for (let attempt = 0; ; attempt++) {
    try {
      return parseFixture(f, "the recorded organization");
    } catch (e) {
      if (!(e instanceof FixtureError) || attempt > 5) throw e;
      const drops = e.issues.map((i) => ({ issue: i, at: droppable(f, i.path) }));
      if (drops.some((d) => !d.at)) throw e;
      // Highest index first, so that each removal leaves the others' positions as they were.
      const done = new Map<unknown[], Set<number>>();
      for (const { issue, at } of drops.sort((a, b) => b.at!.index - a.at!.index)) {
        const seen = done.get(at!.list) ?? done.set(at!.list, new Set()).get(at!.list)!;
        if (seen.has(at!.index)) continue; // two problems of one element
        seen.add(at!.index);
        at!.list.splice(at!.index, 1);
        notes.push(`the replay's emulator refuses a recorded ${at!.what} (${maskMessage(issue.message)}): left out`);
      }
    }
  }
}

/** The list element of the organization `path` points into, if it is one a replay can do without. */
function droppable(f: Fixture, path: (string | number)[]): { list: unknown[]; index: number; what: string } | undefined {
  const o = f.organization;
  const [top, list, i, sub, j] = path;
  if (top !== "organization" || typeof i !== "number") return undefined;
  if (list === "policies" && o.policies[i]) return { list: o.policies, index: i, what: "policy" };
  if (list === "privateKeys" && o.privateKeys[i]) return { list: o.privateKeys, index: i, what: "private key" };
  const w = list === "wallets" ? o.wallets[i] : undefined;
  if (w && sub === "accounts" && typeof j === "number" && w.accounts[j]) return { list: w.accounts, index: j, what: `wallet account (${w.accounts[j].addressFormat})` };
  const u = list === "users" ? o.users[i] : undefined;
  if (u && (sub === "authenticators" || sub === "oauthProviders") && typeof j === "number" && u[sub][j]) return { list: u[sub], index: j, what: sub === "authenticators" ? "passkey" : "OAuth provider" };
  return undefined;
}

/** Gives a running emulator the recorded organization: an embedded one seeds it, the target takes its state. */
async function loadOnTarget(url: string, fixture: Fixture): Promise<void> {
  const clock = await fetch(`${url}/emulator/v1/clock`).catch((e: Error) => e);
  if (clock instanceof Error || !clock.ok) throw new Error(`--target ${url} is not an emulator (its control API does not answer GET /emulator/v1/clock): a replay needs one`);
  const seeder = await startEmulator({ port: 0, fixtures: fixture });
  try {
    const state = Buffer.from(await (await fetch(`${seeder.url}/emulator/v1/state`)).arrayBuffer());
    const put = await fetch(`${url}/emulator/v1/state`, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: state });
    if (!put.ok) throw new Error(`--target ${url} refused the recorded organization's state: HTTP ${put.status} ${await put.text()}`);
  } finally {
    await seeder.stop();
  }
}

function ledgerOf(exchanges: ExchangeReport[]): ReplayReport["ledger"] {
  const out: ReplayReport["ledger"] = {};
  for (const e of exchanges) {
    if (e.outcome === "not replayed") continue;
    for (const row of e.rows) {
      const r = (out[row] ??= { confirmedBy: [], contradictedBy: [] });
      (e.outcome === "same" ? r.confirmedBy : r.contradictedBy).push(e.seq);
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

class NotReplayable extends Error {}

/** One replay's state: the value map, the replay's keys, the clock. */
class Replay {
  private readonly map = new ValueMap();
  private readonly keys: Map<string, KeyPair>;
  /** Redacts the replay's answers as the recorder did the recorded ones, before they are compared or reported. */
  private readonly redactor = new Redactor();
  private clockAt: { emulated: number; host: number } | undefined;
  /** The replay's OTP target bundles by its otpIds. */
  private readonly otpTargets = new Map<string, string>();

  constructor(
    private readonly url: string,
    private readonly initial: InitialOrganization,
    private readonly recorded: Exchange[],
  ) {
    this.keys = new Map();
    for (const [k, pair] of initial.keys) this.hold(k, pair);
  }

  /** Takes `pair` as the replay's stand-in for the recorded public key `recorded`. */
  private hold(recorded: string, pair: KeyPair): KeyPair {
    this.keys.set(recorded, pair);
    this.map.set(recorded, pair.publicKey);
    return pair;
  }

  /** The replay's pair for a recorded public key, made now if none stands for it yet. */
  private pairFor(recorded: string, curveType?: string): KeyPair {
    return this.keys.get(recorded) ?? this.hold(recorded, keyPairLike(recorded, curveType));
  }

  /** The replay's pair whose public key is `publicKey`. */
  private pairOf(publicKey: string): KeyPair | undefined {
    return [...this.keys.values()].find((k) => k.publicKey === publicKey);
  }

  /** Maps the recorded accounts' and private keys' addresses to those the replay's seeding derived. */
  async mapInitialState(): Promise<void> {
    const res = await fetch(`${this.url}/emulator/v1/organizations/${this.initial.organizationId}`);
    if (!res.ok) throw new Error(`the replay's emulator does not hold the recorded organization: HTTP ${res.status}`);
    const org = (await res.json()) as { wallets: { walletId: string; accounts: { path: string; addressFormat: string; address: string; walletAccountId: string }[] }[]; privateKeys: { privateKeyId: string; addresses: { format: string; address: string }[] }[] };
    for (const a of this.initial.accounts) {
      const mine = org.wallets.find((w) => w.walletId === a.walletId)?.accounts.find((b) => b.path === a.path && b.addressFormat === a.addressFormat);
      if (!mine) continue;
      this.map.set(a.address, mine.address);
      if (a.walletAccountId) this.map.set(a.walletAccountId, mine.walletAccountId);
    }
    for (const a of this.initial.privateKeyAddresses) {
      const mine = org.privateKeys.find((k) => k.privateKeyId === a.privateKeyId)?.addresses.find((b) => b.format === a.addressFormat);
      if (mine) this.map.set(a.address, mine.address);
    }
  }

  async exchange(x: Exchange, index: number): Promise<ExchangeReport> {
    const base = { seq: x.seq, surface: x.surface, operation: x.operation };
    let request: { body: string; headers: Record<string, string> };
    try {
      await this.moveClock(x.recordedAt);
      request = await this.request(x, index);
    } catch (e) {
      if (!(e instanceof NotReplayable)) throw e;
      const rows = rowsTouched({ operation: x.operation, request: x.request.body, session: !!x.request.session, answers: [x.response] });
      return { ...base, outcome: "not replayed", status: { recorded: x.response.status }, differences: [], rows, reason: e.message };
    }
    const res = await fetch(this.url + x.path, { method: "POST", headers: request.headers, body: request.body });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* keep the text */
    }
    const replayed = { status: res.status, body: this.redactor.json(body) };
    // A listing compares only what both sides are known to hold; an activity's answer pairs what it introduces. Then it teaches the map.
    const known = x.operation.startsWith("query ");
    const differences = compareAnswers(x.response, replayed, (a, b) => this.map.align(a, b, known));
    if (res.status === x.response.status) this.map.learn(x.response.body, body);
    for (const [otpId, bundle] of otpTargetsIn(body)) this.otpTargets.set(otpId, bundle);
    const rows = rowsTouched({ operation: x.operation, request: x.request.body, session: !!x.request.session, answers: [x.response, replayed] });
    return { ...base, outcome: differences.length ? "differ" : "same", status: { recorded: x.response.status, replayed: res.status }, differences, rows };
  }

  /** Moves the emulated clock to when the request was recorded: the first time wherever that is, then only forwards. */
  private async moveClock(recordedAt: number): Promise<void> {
    const now = this.clockAt ? this.clockAt.emulated + (Date.now() - this.clockAt.host) : undefined;
    if (now !== undefined && recordedAt <= now + 20) return;
    const res = await fetch(`${this.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ set: recordedAt }) });
    if (!res.ok) throw new Error(`the replay's emulator refused to set its clock: HTTP ${res.status} ${await res.text()}`);
    this.clockAt = { emulated: recordedAt, host: Date.now() };
  }

  /** The recorded request with the replay's values, secrets and stamp. */
  private async request(x: Exchange, index: number): Promise<{ body: string; headers: Record<string, string> }> {
    this.introduceKeys(x.request.body);
    const body = this.resign(await this.resolveSecrets(this.map.apply(x.request.body), index));
    const text = body === null || body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(x.request.headers)) headers[k] = this.map.apply(v) as string;
    headers["content-type"] ??= "application/json";
    if (x.request.session) headers["X-Session"] = this.secret(x.request.session);
    const s = x.request.stamp;
    if (s) {
      if (s.header === "X-Stamp-WebAuthn") throw new NotReplayable("stamped with a passkey: the replay holds no passkey to stamp with");
      const key = s.publicKey ? this.keys.get(s.publicKey) : undefined;
      if (!key) throw new NotReplayable("stamped by a key the replay holds no pair for (no answer names its user)");
      if (key.curve !== "p256" || (s.scheme && !/P256/.test(s.scheme))) throw new NotReplayable(`stamped with ${s.scheme ?? "another scheme"}: the replay stamps with P-256 only`);
      const stamp = await stampWith(key, text);
      if (s.header === "X-Stamp") headers[stamp.name] = stamp.value;
      else {
        const attested = { publicKeyAttestation: this.secret(s.attestation ?? ""), scheme: s.scheme, publicKey: key.publicKey, signature: stamp.signature };
        headers["X-Stamp-Attested"] = Buffer.from(JSON.stringify(attested)).toString("base64url");
      }
    }
    return { body: text, headers };
  }

  /** Gives every public key a request introduces a pair of the replay's own, the same kind. */
  private introduceKeys(v: unknown, key?: string, parent?: Record<string, unknown>): void {
    if (typeof v === "string") {
      if ((key === "publicKey" || key === "targetPublicKey") && isPublicKeyHex(v) && this.map.get(v) === undefined) this.pairFor(v, typeof parent?.curveType === "string" ? parent.curveType : undefined);
    } else if (Array.isArray(v)) for (const x of v) this.introduceKeys(x, key, parent);
    else if (isObj(v)) for (const [k, x] of Object.entries(v)) this.introduceKeys(x, k, v);
  }

  /** The replay's value of a recorded secret (a marker its answers introduced). */
  private secret(marker: string): string {
    const v = this.map.get(marker);
    if (v === undefined) throw new NotReplayable(`sends a secret (${parseMarker(marker)?.kind ?? "unknown"}) that no earlier answer of the replay gave`);
    return v;
  }

  /**
   * Replaces the markers left in a request: an OTP code from the replay's mailbox, an OTP v2
   * bundle sealed anew; any other secret must be one the replay's answers gave.
   */
  private async resolveSecrets(v: unknown, index: number, root: unknown = v): Promise<unknown> {
    if (typeof v === "string") {
      const m = parseMarker(v);
      if (!m) return v;
      if (m.kind === "otpCode") return this.otpCode(root);
      if (m.kind === "otpBundle") return this.otpBundle(root, index);
      return this.secret(v);
    }
    if (Array.isArray(v)) return Promise.all(v.map((x) => this.resolveSecrets(x, index, root)));
    if (isObj(v)) return Object.fromEntries(await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await this.resolveSecrets(x, index, root)] as const)));
    return v;
  }

  /** An OTP v2 verification's bundle: the replay's code and the key the token will be used with, sealed to the replay's target. */
  private async otpBundle(body: unknown, index: number): Promise<string> {
    const otpId = fieldOf(body, "otpId");
    const target = otpId && this.otpTargets.get(otpId);
    if (!target) throw new NotReplayable("sends an OTP bundle for an OTP whose target bundle no answer of the replay gave");
    const bound = boundKeyOf(this.recorded, index);
    const key = bound ? this.pairFor(bound) : keyPairLike("");
    return sealOtpBundle(await this.otpCode(body), target, key.publicKey);
  }

  /** Client signatures (otp_login_v2, signup_v2) signed anew over the replay's token and keys. */
  private resign(body: unknown, root: unknown = body): unknown {
    if (Array.isArray(body)) return body.map((x) => this.resign(x, root));
    if (!isObj(body)) return body;
    if (body.scheme === "CLIENT_SIGNATURE_SCHEME_API_P256" && typeof body.message === "string" && typeof body.publicKey === "string") {
      const key = this.pairOf(body.publicKey);
      const token = fieldOf(root, "verificationToken");
      if (!key || !token) throw new NotReplayable("sends a client signature by a key or for a token the replay does not hold");
      return clientSignatureFor(body, key, token);
    }
    return Object.fromEntries(Object.entries(body).map(([k, x]) => [k, this.resign(x, root)]));
  }

  /** The code the replay's emulator sent for the request's `otpId`. */
  private async otpCode(body: unknown): Promise<string> {
    const otpId = fieldOf(body, "otpId");
    if (!otpId) throw new NotReplayable("sends an OTP code without an otpId to find it by");
    const mail = (await (await fetch(`${this.url}/emulator/v1/mailbox`)).json()) as { otpId?: string; otpCode?: string }[];
    const code = mail.reverse().find((m) => m.otpId === otpId)?.otpCode;
    if (!code) throw new NotReplayable(`the replay's mailbox holds no code for its OTP ${otpId}`);
    return code;
  }
}
