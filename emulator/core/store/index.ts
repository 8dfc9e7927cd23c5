import Database from "better-sqlite3";
import { inTransaction, openDb, setMeta, type Db } from "./db.js";
import { MIGRATIONS_TABLE, NO_FAMILY_SCHEMA, type FamilySchema } from "./migrations.js";
import { watchTableChanges, withChangesAtStart } from "./table-changes.js";
import { writeHeld } from "./held-writes.js";
import { openSealing, serializeInMemoryWithKey, withKeyInside, type Sealer, type Sealing } from "./seal.js";
import { Organizations } from "./organizations.js";
import { Users } from "./users.js";
import { ApiKeys } from "./api-keys.js";
import { Tags } from "./tags.js";
import { Activities } from "./activities.js";
import { Authenticators } from "./authenticators.js";
import { OauthProviders } from "./oauth-providers.js";
import { VerificationTokens } from "./verification-tokens.js";
import { SubOrganizations } from "./sub-organizations.js";
import { Policies, PolicyEvaluations, SmartContractInterfaces } from "./policies.js";
import { MfaChallenges, MfaPolicies } from "./mfa-policies.js";

/**
 * The repositories of the tables the core reads to authenticate and decide: organizations,
 * users and their credentials, tags, policies, MFA, activities. Each over `db`.
 */
function coreRepositories(db: Db) {
  const activities = new Activities(db);
  return {
    organizations: new Organizations(db),
    subOrganizations: new SubOrganizations(db),
    users: new Users(db),
    apiKeys: new ApiKeys(db),
    authenticators: new Authenticators(db),
    oauthProviders: new OauthProviders(db),
    verificationTokens: new VerificationTokens(db),
    tags: new Tags(db),
    policies: new Policies(db),
    smartContractInterfaces: new SmartContractInterfaces(db),
    mfaPolicies: new MfaPolicies(db),
    mfaChallenges: new MfaChallenges(db),
    activities,
    policyEvaluations: new PolicyEvaluations(activities),
  };
}

type CoreRepositories = ReturnType<typeof coreRepositories>;

/**
 * Each family's repositories: empty here, declared by the families from their own folders
 * (`declare module ".../store/index.js" { interface FamilyRepositories { tvc: Tvc } }`) and made
 * by their declaration's `repositories` (family.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FamilyRepositories {}

/** A family's repositories over `db` (those keeping sealed values seal with `sealer`). */
export type RepositoryFactory = (db: Db, sealer: Sealer) => Partial<FamilyRepositories>;

export type StoreOptions = {
  /** The sealing key (else EMULATOR_SEALING_KEY, else a key file or the database's own: store/seal.ts). */
  sealingKey?: string;
  /** The families' repositories (emulator/families.ts gives every family's). */
  repositories?: readonly RepositoryFactory[];
  /** The families' migrations and read indexes (emulator/families.ts gives every family's; migrations.ts). */
  schema?: FamilySchema;
};

// The repositories are the store's members (assigned by `attach`): the core's and each family's.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Store extends CoreRepositories, FamilyRepositories {}

/** The emulator's state: one SQLite database and a repository per aggregate. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Store {
  readonly sealer: Sealer;
  /** The sealing key in use and where it lives (store/seal.ts). */
  readonly sealing: Sealing;

  /** Verifies (or, for a new database, creates) the sealing key first: a key that does not open the secrets is refused here. */
  private current: Db;

  /** The families' repositories this store makes over each database it uses. */
  readonly repositoryFactories: readonly RepositoryFactory[];
  /** The families' part of the schema every database this store uses is migrated to (a fresh one on `clear`, a loaded state). */
  readonly schema: FamilySchema;

  constructor(db: Db, opts: StoreOptions = {}) {
    this.current = db;
    this.sealing = openSealing(db, opts.sealingKey ?? process.env.EMULATOR_SEALING_KEY);
    this.sealer = this.sealing.sealer;
    this.repositoryFactories = opts.repositories ?? [];
    this.schema = opts.schema ?? NO_FAMILY_SCHEMA;
    this.attach(db);
  }

  /** The database in use (an in-memory one is replaced by a fresh database on `clear`). */
  get db(): Db {
    return this.current;
  }

  /** Points every repository at `db`. */
  private attach(db: Db): void {
    this.current = db;
    watchTableChanges(db);
    Object.assign(this, coreRepositories(db), ...this.repositoryFactories.map((make) => make(db, this.sealer)));
  }

  static open(file?: string, opts: StoreOptions = {}): Store {
    const db = openDb(file, opts.schema);
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
   * Drops every resource (keeps the schema and its record of named migrations, the sealing key
   * and its check value). An in-memory database (the default temporary one, or a loaded state
   * image) is replaced by a fresh temporary one holding only the kept settings, and the old one
   * is closed: SQLite frees its pages and deletes its file, where deleting its rows would keep
   * every page it ever grew to. A file keeps its rows deleted.
   */
  clear(): void {
    if (this.current.memory) {
      const fresh = openDb(undefined, this.schema);
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
      this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('meta', ?) AND name NOT LIKE 'sqlite_%'").all(MIGRATIONS_TABLE) as { name: string }[]
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
