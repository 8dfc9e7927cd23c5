import Database from "better-sqlite3";
import { inTransaction, openDb, setMeta, type Db } from "./db.js";
import { watchTableChanges, withChangesAtStart } from "./table-changes.js";
import { writeHeld } from "./held-writes.js";
import { openSealing, serializeInMemoryWithKey, withKeyInside, type Sealer, type Sealing } from "./seal.js";
import { Organizations } from "./organizations.js";
import { Users } from "./users.js";
import { ApiKeys } from "./api-keys.js";
import { Tags } from "./tags.js";
import { GasUsageConfigs, SendTransactions } from "./send-transactions.js";
import { Activities } from "./activities.js";
import { Authenticators } from "./authenticators.js";
import { Wallets } from "./wallets.js";
import { PrivateKeys } from "./private-keys.js";
import { OauthProviders } from "./oauth-providers.js";
import { Otps, VerificationTokens } from "./otps.js";
import { ImportTargets } from "./import-targets.js";
import { Mailbox } from "./mailbox.js";
import { SubOrganizations } from "./sub-organizations.js";
import { Policies, PolicyEvaluations, SmartContractInterfaces } from "./policies.js";
import { Oauth2 } from "./oauth2.js";
import { AuthProxyConfigs } from "./auth-proxy-configs.js";
import { MfaChallenges, MfaPolicies } from "./mfa-policies.js";
import { Invitations } from "./invitations.js";
import { SessionProfiles } from "./session-profiles.js";
import { FiatOnRampCredentials, OnRampTransactions } from "./fiat-on-ramp.js";
import { SwapConfigs } from "./swap-configs.js";
import { EarnRequests, EarnWrappers } from "./earn.js";
import { SwapQuotes, Swaps } from "./swaps.js";
import { Tvc } from "./tvc.js";
import { AppProofs } from "./app-proofs.js";
import { IpAllowlists } from "./ip-allowlist.js";
import { Secrets } from "./secrets.js";
import { VelocityControls } from "./velocity-controls.js";

/** A repository per aggregate, over `db` (those keeping sealed values seal with `sealer`). */
function repositories(db: Db, sealer: Sealer) {
  const activities = new Activities(db);
  return {
    organizations: new Organizations(db),
    users: new Users(db),
    apiKeys: new ApiKeys(db),
    tags: new Tags(db),
    sendTransactions: new SendTransactions(db),
    gasUsageConfigs: new GasUsageConfigs(db),
    activities,
    authenticators: new Authenticators(db),
    wallets: new Wallets(db),
    privateKeys: new PrivateKeys(db),
    oauthProviders: new OauthProviders(db),
    otps: new Otps(db),
    verificationTokens: new VerificationTokens(db),
    importTargets: new ImportTargets(db),
    mailbox: new Mailbox(db, sealer),
    subOrganizations: new SubOrganizations(db),
    policies: new Policies(db),
    oauth2: new Oauth2(db),
    smartContractInterfaces: new SmartContractInterfaces(db),
    policyEvaluations: new PolicyEvaluations(activities),
    authProxyConfigs: new AuthProxyConfigs(db),
    mfaPolicies: new MfaPolicies(db),
    mfaChallenges: new MfaChallenges(db),
    invitations: new Invitations(db),
    sessionProfiles: new SessionProfiles(db),
    fiatOnRampCredentials: new FiatOnRampCredentials(db),
    onRampTransactions: new OnRampTransactions(db),
    swapConfigs: new SwapConfigs(db),
    earnWrappers: new EarnWrappers(db),
    earnRequests: new EarnRequests(db),
    swapQuotes: new SwapQuotes(db),
    swaps: new Swaps(db),
    tvc: new Tvc(db),
    appProofs: new AppProofs(db),
    ipAllowlists: new IpAllowlists(db),
    secrets: new Secrets(db),
    velocityControls: new VelocityControls(db),
  };
}

/** Every repository the store holds: a new one is one line in `repositories()`. */
type Repositories = ReturnType<typeof repositories>;

// The repositories are the store's members (assigned by `attach`), declared once by `repositories()`.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Store extends Repositories {}

/** The emulator's state: one SQLite database and a repository per aggregate. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Store {
  readonly sealer: Sealer;
  /** The sealing key in use and where it lives (store/seal.ts). */
  readonly sealing: Sealing;

  /** Verifies (or, for a new database, creates) the sealing key first: a key that does not open the secrets is refused here. */
  private current: Db;

  constructor(db: Db, opts: { sealingKey?: string } = {}) {
    this.current = db;
    this.sealing = openSealing(db, opts.sealingKey ?? process.env.EMULATOR_SEALING_KEY);
    this.sealer = this.sealing.sealer;
    this.attach(db);
    // Mail an older emulator kept in clear is sealed now; a file's WAL is emptied into it, so the old pages go too.
    if (this.mailbox.sealClearRows() && !db.memory) db.pragma("wal_checkpoint(TRUNCATE)");
  }

  /** The database in use (an in-memory one is replaced by a fresh database on `clear`). */
  get db(): Db {
    return this.current;
  }

  /** Points every repository at `db`. */
  private attach(db: Db): void {
    this.current = db;
    watchTableChanges(db);
    Object.assign(this, repositories(db, this.sealer));
  }

  static open(file?: string, opts: { sealingKey?: string } = {}): Store {
    const db = openDb(file);
    try {
      return new Store(db, opts);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * The whole database as one SQLite image that opens anywhere: a key kept in a key file or
   * in the process goes inside the image (an EMULATOR_SEALING_KEY never does).
   */
  image(): Buffer {
    writeHeld(this.db); // rows held back until a quiet moment (the webhook outbox) are part of the state
    // In memory (the temporary database or a state image), outside a transaction: the key goes in without a copy of the image.
    if (this.db.memory && !this.db.inTransaction) return serializeInMemoryWithKey(this.db, this.sealing);
    return withKeyInside(this.db.serialize(), this.sealing, (image) => new Database(image));
  }

  /** Runs `fn` in one SQLite transaction: all of its writes land, or none. */
  tx<T>(fn: () => T): T {
    // The outermost one notes the user-change count it began at (views reuse voter renderings read inside it).
    const db = this.db;
    return db.inTransaction ? inTransaction(db, fn) : withChangesAtStart(db, () => inTransaction(db, fn));
  }

  /**
   * Drops every resource (keeps the schema, the sealing key and its check value). An in-memory
   * database (the default temporary one, or a loaded state image) is replaced by a fresh
   * temporary one holding only the kept settings, and the old one is closed: SQLite frees its
   * pages and deletes its file, where deleting its rows would keep every page it ever grew to.
   * A file keeps its rows deleted.
   */
  clear(): void {
    if (this.current.memory) {
      const fresh = openDb();
      try {
        const kept = this.current.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
        fresh.transaction(() => {
          for (const { key, value } of kept) setMeta(fresh, key, value);
        })();
      } catch (e) {
        fresh.close();
        throw e;
      }
      const old = this.current;
      this.attach(fresh);
      old.close();
      return;
    }
    const tables = (
      this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('meta') AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]
    ).map((r) => r.name);
    this.db.pragma("foreign_keys = OFF");
    try {
      this.tx(() => {
        for (const t of tables) this.db.exec(`DELETE FROM "${t}"`);
      });
    } finally {
      this.db.pragma("foreign_keys = ON");
    }
  }

  close(): void {
    this.db.close();
  }
}

export type { Db };
