import Database from "better-sqlite3";
import { openDb, type Db } from "./db.js";
import { openSealing, withKeyInside, type Sealer, type Sealing } from "./seal.js";
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
import { Tvc } from "./tvc.js";
import { AppProofs } from "./app-proofs.js";
import { IpAllowlists } from "./ip-allowlist.js";
import { Secrets } from "./secrets.js";

/** The emulator's state: one SQLite database and a repository per aggregate. */
export class Store {
  readonly organizations: Organizations;
  readonly users: Users;
  readonly apiKeys: ApiKeys;
  readonly tags: Tags;
  readonly sendTransactions: SendTransactions;
  readonly gasUsageConfigs: GasUsageConfigs;
  readonly activities: Activities;
  readonly authenticators: Authenticators;
  readonly wallets: Wallets;
  readonly privateKeys: PrivateKeys;
  readonly oauthProviders: OauthProviders;
  readonly otps: Otps;
  readonly verificationTokens: VerificationTokens;
  readonly importTargets: ImportTargets;
  readonly mailbox: Mailbox;
  readonly subOrganizations: SubOrganizations;
  readonly policies: Policies;
  readonly oauth2: Oauth2;
  readonly smartContractInterfaces: SmartContractInterfaces;
  readonly policyEvaluations: PolicyEvaluations;
  readonly authProxyConfigs: AuthProxyConfigs;
  readonly mfaPolicies: MfaPolicies;
  readonly mfaChallenges: MfaChallenges;
  readonly invitations: Invitations;
  readonly sessionProfiles: SessionProfiles;
  readonly fiatOnRampCredentials: FiatOnRampCredentials;
  readonly onRampTransactions: OnRampTransactions;
  readonly swapConfigs: SwapConfigs;
  readonly tvc: Tvc;
  readonly appProofs: AppProofs;
  readonly ipAllowlists: IpAllowlists;
  readonly secrets: Secrets;
  readonly sealer: Sealer;
  /** The sealing key in use and where it lives (store/seal.ts). */
  readonly sealing: Sealing;

  /** Verifies (or, for a new database, creates) the sealing key first: a key that does not open the secrets is refused here. */
  constructor(readonly db: Db, opts: { sealingKey?: string } = {}) {
    this.sealing = openSealing(db, opts.sealingKey ?? process.env.EMULATOR_SEALING_KEY);
    this.sealer = this.sealing.sealer;
    this.organizations = new Organizations(db);
    this.users = new Users(db);
    this.apiKeys = new ApiKeys(db);
    this.tags = new Tags(db);
    this.sendTransactions = new SendTransactions(db);
    this.gasUsageConfigs = new GasUsageConfigs(db);
    this.activities = new Activities(db);
    this.authenticators = new Authenticators(db);
    this.wallets = new Wallets(db);
    this.privateKeys = new PrivateKeys(db);
    this.oauthProviders = new OauthProviders(db);
    this.otps = new Otps(db);
    this.verificationTokens = new VerificationTokens(db);
    this.importTargets = new ImportTargets(db);
    this.mailbox = new Mailbox(db);
    this.subOrganizations = new SubOrganizations(db);
    this.policies = new Policies(db);
    this.oauth2 = new Oauth2(db);
    this.smartContractInterfaces = new SmartContractInterfaces(db);
    this.policyEvaluations = new PolicyEvaluations(db);
    this.authProxyConfigs = new AuthProxyConfigs(db);
    this.mfaPolicies = new MfaPolicies(db);
    this.mfaChallenges = new MfaChallenges(db);
    this.invitations = new Invitations(db);
    this.sessionProfiles = new SessionProfiles(db);
    this.fiatOnRampCredentials = new FiatOnRampCredentials(db);
    this.onRampTransactions = new OnRampTransactions(db);
    this.swapConfigs = new SwapConfigs(db);
    this.tvc = new Tvc(db);
    this.appProofs = new AppProofs(db);
    this.ipAllowlists = new IpAllowlists(db);
    this.secrets = new Secrets(db);
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
   * The whole database as one SQLite image that opens anywhere: a key kept in a key file
   * goes inside the image (an EMULATOR_SEALING_KEY never does).
   */
  image(): Buffer {
    return withKeyInside(this.db.serialize(), this.sealing, (image) => new Database(image));
  }

  /** Runs `fn` in one SQLite transaction: all of its writes land, or none. */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Drops every resource (keeps the schema, the sealing key and its check value). */
  clear(): void {
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
