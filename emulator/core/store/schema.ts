/**
 * The core's part of the SQLite schema (migrations.ts says how a database is brought to it).
 * JSON columns hold small nested values that are always read and written whole.
 *
 * `BASELINE_MIGRATIONS` is the numbered list every database was built with until the families
 * declared their own migrations (issue 40): the core's tables and every family's, in the order
 * they were added. A database records how many it has applied (PRAGMA user_version). The list
 * is frozen: its last entry creates the record of named migrations and is the last it will
 * ever have. A later change to the core's tables is a named migration in `CORE_MIGRATIONS`;
 * one to a family's tables is a named migration in that family's `migrations` (family.ts).
 */
export const BASELINE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    parent_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
    root_quorum_threshold INTEGER NOT NULL DEFAULT 1,
    root_user_ids TEXT NOT NULL DEFAULT '[]',
    features TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX organizations_parent ON organizations(parent_id);

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    email_verified INTEGER NOT NULL DEFAULT 0,
    phone_verified INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX users_org ON users(org_id);

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    public_key TEXT NOT NULL,
    credential_type TEXT NOT NULL,
    expiration_seconds TEXT,
    expires_at INTEGER,
    session_profile_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX api_keys_user ON api_keys(user_id);
  CREATE INDEX api_keys_public_key ON api_keys(public_key);
  CREATE UNIQUE INDEX api_keys_user_public_key ON api_keys(user_id, public_key);

  CREATE TABLE tags (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    tag_type TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX tags_org_type_name ON tags(org_id, tag_type, name);

  CREATE TABLE tag_members (
    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    member_id TEXT NOT NULL,
    PRIMARY KEY (tag_id, member_id)
  );
  CREATE INDEX tag_members_member ON tag_members(member_id);

  CREATE TABLE activities (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    fingerprint TEXT NOT NULL UNIQUE,
    intent TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT '{}',
    failure TEXT,
    votes TEXT NOT NULL DEFAULT '[]',
    user_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX activities_org ON activities(org_id, seq);
  `,
  `
  CREATE TABLE authenticators (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    credential_id TEXT NOT NULL,
    public_key TEXT NOT NULL,
    aaguid TEXT NOT NULL,
    attestation_type TEXT NOT NULL,
    transports TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX authenticators_user ON authenticators(user_id);
  CREATE INDEX authenticators_credential ON authenticators(credential_id);
  `,
  `
  CREATE TABLE wallets (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    mnemonic_sealed TEXT NOT NULL,
    exported INTEGER NOT NULL DEFAULT 0,
    imported INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX wallets_org ON wallets(org_id, created_at);

  CREATE TABLE wallet_accounts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    wallet_id TEXT NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
    curve TEXT NOT NULL,
    path TEXT NOT NULL,
    path_key TEXT NOT NULL,
    address_format TEXT NOT NULL,
    address TEXT NOT NULL,
    public_key TEXT NOT NULL,
    name TEXT,
    exported INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX wallet_accounts_wallet ON wallet_accounts(wallet_id, seq);
  CREATE INDEX wallet_accounts_org ON wallet_accounts(org_id, seq);
  CREATE INDEX wallet_accounts_address ON wallet_accounts(address);
  CREATE UNIQUE INDEX wallet_accounts_unique_path ON wallet_accounts(wallet_id, curve, path_key, address_format);

  CREATE TABLE private_keys (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    curve TEXT NOT NULL,
    private_key_sealed TEXT NOT NULL,
    public_key TEXT NOT NULL,
    addresses TEXT NOT NULL DEFAULT '[]',
    exported INTEGER NOT NULL DEFAULT 0,
    imported INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX private_keys_org ON private_keys(org_id, created_at);

  CREATE TABLE private_key_addresses (
    private_key_id TEXT NOT NULL REFERENCES private_keys(id) ON DELETE CASCADE,
    org_id TEXT NOT NULL,
    address TEXT NOT NULL
  );
  CREATE INDEX private_key_addresses_address ON private_key_addresses(address);
  `,
  `
  CREATE TABLE policies (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    effect TEXT NOT NULL,
    condition TEXT,
    consensus TEXT,
    time TEXT,
    notes TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX policies_org_name ON policies(org_id, name);

  CREATE TABLE smart_contract_interfaces (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    type TEXT NOT NULL,
    interface TEXT NOT NULL,
    label TEXT NOT NULL,
    notes TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX smart_contract_interfaces_address ON smart_contract_interfaces(org_id, address);

  CREATE TABLE policy_evaluations (
    id TEXT PRIMARY KEY,
    activity_id TEXT NOT NULL,
    org_id TEXT NOT NULL,
    vote_id TEXT,
    evaluations TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX policy_evaluations_activity ON policy_evaluations(activity_id);
  `,
  `
  CREATE TABLE sub_organizations (
    org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    settings TEXT NOT NULL DEFAULT '{}',
    deleted_at INTEGER
  );

  CREATE TABLE oauth_providers (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    audience TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX oauth_providers_user ON oauth_providers(user_id);
  CREATE UNIQUE INDEX oauth_providers_identity ON oauth_providers(org_id, issuer, subject, audience);

  CREATE TABLE otps (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    otp_type TEXT NOT NULL,
    contact TEXT NOT NULL,
    code_sealed TEXT NOT NULL,
    target_key_sealed TEXT,
    alphanumeric INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE verification_tokens (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    contact TEXT NOT NULL,
    verification_type TEXT NOT NULL,
    public_key TEXT,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE import_targets (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    org_id TEXT NOT NULL,
    target_key_sealed TEXT NOT NULL,
    target_public TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind)
  );

  CREATE TABLE mailbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id TEXT NOT NULL,
    contact TEXT NOT NULL,
    channel TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    extra TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL
  );
  CREATE INDEX mailbox_contact ON mailbox(contact, seq);
  `,
  `
  CREATE TABLE auth_proxy_configs (
    org_id TEXT PRIMARY KEY,
    config_id TEXT NOT NULL UNIQUE,
    enabled INTEGER NOT NULL,
    proxy_user_id TEXT NOT NULL,
    proxy_api_key_id TEXT NOT NULL,
    proxy_public_key TEXT NOT NULL,
    proxy_key_sealed TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  `
  ALTER TABLE verification_tokens ADD COLUMN signup_used_at INTEGER;
  `,
  `
  CREATE TABLE oauth2_credentials (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    client_id TEXT NOT NULL,
    encrypted_client_secret TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX oauth2_credentials_org ON oauth2_credentials(org_id, created_at);

  CREATE TABLE oauth2_codes (
    code TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    client_id TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    subject TEXT NOT NULL,
    username TEXT,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  );
  `,
  // Uniqueness rules (store/unique.ts). Names repeated before these rules existed are kept
  // apart by appending the row id to every copy but the oldest, so the indexes can be built.
  `
  UPDATE wallets SET name = name || ' (' || id || ')'
    WHERE rowid NOT IN (SELECT MIN(rowid) FROM wallets GROUP BY org_id, name);
  CREATE UNIQUE INDEX wallets_org_name ON wallets(org_id, name);

  UPDATE private_keys SET name = name || ' (' || id || ')'
    WHERE rowid NOT IN (SELECT MIN(rowid) FROM private_keys GROUP BY org_id, name);
  CREATE UNIQUE INDEX private_keys_org_name ON private_keys(org_id, name);

  DELETE FROM authenticators
    WHERE rowid NOT IN (SELECT MIN(rowid) FROM authenticators GROUP BY org_id, credential_id);
  CREATE UNIQUE INDEX authenticators_org_credential ON authenticators(org_id, credential_id);
  `,
  // MFA policies (per user) and the challenges they raise on activities (engine/mfa.ts).
  `
  CREATE TABLE mfa_policies (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    condition TEXT NOT NULL,
    required_methods TEXT NOT NULL,
    evaluation_order INTEGER NOT NULL,
    notes TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX mfa_policies_user ON mfa_policies(user_id, evaluation_order, created_at);

  CREATE TABLE mfa_challenges (
    id TEXT PRIMARY KEY,
    activity_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    mfa_policy_id TEXT NOT NULL,
    required_methods TEXT NOT NULL,
    satisfied_methods TEXT NOT NULL,
    satisfied INTEGER NOT NULL,
    held_vote TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (activity_id, user_id)
  );
  `,
  // Invitations (create_invitations / delete_invitation) and session profiles (immutable,
  // created by the parent organization; login activities may name one).
  `
  CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    sender_user_id TEXT NOT NULL,
    receiver_name TEXT NOT NULL,
    receiver_email TEXT NOT NULL,
    receiver_tags TEXT NOT NULL,
    access_type TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX invitations_org ON invitations(org_id, created_at);

  CREATE TABLE session_profiles (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    scope TEXT NOT NULL,
    expiration_seconds TEXT,
    notes TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX session_profiles_org ON session_profiles(org_id, created_at);
  `,
  // Transactions broadcast by eth_send_transaction / sol_send_transaction (their status is read from the chain).
  `
  CREATE TABLE send_transactions (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    activity_id TEXT NOT NULL,
    caip2 TEXT NOT NULL,
    namespace TEXT NOT NULL,
    tx_hash TEXT NOT NULL,
    from_address TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX send_transactions_org ON send_transactions(org_id, created_at);
  `,
  // IP allowlists (one per organization with public_key '' and one per API key; rules are
  // JSON [{cidr, label, createdAt}]), and secrets (imported through single-use ingress target
  // keys; the value and each pending target key are sealed).
  `
  CREATE TABLE ip_allowlists (
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    public_key TEXT NOT NULL,
    enabled INTEGER,
    on_evaluation_error TEXT NOT NULL,
    rules TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (org_id, public_key)
  );

  CREATE TABLE secrets (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT,
    static_properties TEXT NOT NULL,
    value_sealed TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX secrets_org ON secrets(org_id, created_at);
  CREATE UNIQUE INDEX secrets_org_name ON secrets(org_id, name) WHERE name IS NOT NULL;

  CREATE TABLE secret_import_targets (
    target_public TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    target_key_sealed TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX secret_import_targets_org ON secret_import_targets(org_id, created_at);
  `,
  // TVC apps and deployments (records only: nothing is built or run). Operator sets are
  // immutable; a deployment's manifest is the QOS manifest JSON the emulator wrote for it.
  `
  CREATE TABLE tvc_operators (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX tvc_operators_org ON tvc_operators(org_id, created_at);

  CREATE TABLE tvc_operator_sets (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    threshold INTEGER NOT NULL,
    operator_ids TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE tvc_apps (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    quorum_public_key TEXT NOT NULL,
    manifest_set_id TEXT NOT NULL,
    share_set_id TEXT NOT NULL,
    enable_egress INTEGER NOT NULL,
    enable_debug_mode_deployments INTEGER NOT NULL,
    live_deployment_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX tvc_apps_org_name ON tvc_apps(org_id, name);

  CREATE TABLE tvc_deployments (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    app_id TEXT NOT NULL REFERENCES tvc_apps(id) ON DELETE CASCADE,
    manifest_id TEXT NOT NULL UNIQUE,
    manifest TEXT NOT NULL,
    qos_version TEXT NOT NULL,
    container TEXT NOT NULL,
    pull_secret_sealed TEXT,
    debug_mode INTEGER NOT NULL,
    replicas INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX tvc_deployments_app ON tvc_deployments(app_id, created_at);

  CREATE TABLE tvc_manifest_approvals (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    manifest_id TEXT NOT NULL REFERENCES tvc_deployments(manifest_id) ON DELETE CASCADE,
    operator_id TEXT NOT NULL,
    signature TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (manifest_id, operator_id)
  );
  `,
  // Fiat on-ramp: provider credentials (secrets sealed) and the on-ramp transactions the
  // emulated provider's checkout settles.
  `
  CREATE TABLE fiat_on_ramp_credentials (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    project_id TEXT,
    publishable_api_key TEXT NOT NULL,
    encrypted_secret_api_key TEXT NOT NULL,
    secret_api_key_sealed TEXT NOT NULL,
    encrypted_private_api_key TEXT,
    private_api_key_sealed TEXT,
    sandbox_mode INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX fiat_on_ramp_credentials_org ON fiat_on_ramp_credentials(org_id, provider, sandbox_mode);

  CREATE TABLE onramp_transactions (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    activity_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    credential_id TEXT,
    wallet_address TEXT NOT NULL,
    network TEXT NOT NULL,
    crypto_currency TEXT NOT NULL,
    fiat_currency TEXT,
    fiat_amount TEXT,
    payment_method TEXT,
    country_code TEXT,
    country_subdivision_code TEXT,
    sandbox_mode INTEGER NOT NULL,
    status TEXT NOT NULL,
    crypto_amount TEXT,
    caip2 TEXT,
    note TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX onramp_transactions_org ON onramp_transactions(org_id, created_at);
  `,
  // App proofs attached to completed activities that asked for them (generateAppProofs).
  `
  CREATE TABLE app_proofs (
    activity_id TEXT NOT NULL,
    org_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    scheme TEXT NOT NULL,
    public_key TEXT NOT NULL,
    proof_payload TEXT NOT NULL,
    signature TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (activity_id, idx)
  );
  `,
  // Webhooks: endpoints (subscriptions as JSON) and the delivery outbox. Deliveries keep no
  // reference to the organization: a deleted sub-organization's last events still go out.
  `
  CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    name TEXT NOT NULL,
    is_active INTEGER NOT NULL,
    subscriptions TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_endpoints_org ON webhook_endpoints(org_id, created_at);

  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    org_id TEXT NOT NULL,
    subject_org_id TEXT NOT NULL,
    endpoint_id TEXT,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER,
    history TEXT NOT NULL,
    note TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
  `,
  `
  CREATE TABLE swap_configs (
    org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    fee_receiver_wallet_address TEXT,
    fee_bps TEXT,
    stable_fee_bps TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // Send transactions (issue 12, part 3): sponsorship, a refusal recorded at broadcast, the last status reported
  // (for send-status events) and the fee once included; the gas station's per-organization usage limits.
  `
  ALTER TABLE send_transactions ADD COLUMN sponsored INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE send_transactions ADD COLUMN kind TEXT NOT NULL DEFAULT 'send';
  ALTER TABLE send_transactions ADD COLUMN error TEXT;
  ALTER TABLE send_transactions ADD COLUMN reported_status TEXT;
  ALTER TABLE send_transactions ADD COLUMN fee TEXT;
  CREATE INDEX send_transactions_hash ON send_transactions(caip2, tx_hash);
  CREATE TABLE gas_usage_configs (
    org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    org_window_limit_usd TEXT NOT NULL,
    sub_org_window_limit_usd TEXT NOT NULL,
    window_duration_minutes INTEGER NOT NULL,
    enabled INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // Smaller activity rows (issue 17): the policy evaluations of an activity's decisions move into its row
  // (one JSON array instead of a row and two index entries each), oldest first as before.
  `
  ALTER TABLE activities ADD COLUMN evaluations TEXT;
  UPDATE activities SET evaluations = (
    SELECT json_group_array(json_object('id', p.id, 'voteId', p.vote_id, 'evaluations', json(p.evaluations), 'createdAt', p.created_at) ORDER BY p.created_at, p.rowid)
    FROM policy_evaluations p WHERE p.activity_id = activities.id
  ) WHERE id IN (SELECT activity_id FROM policy_evaluations);
  DROP TABLE policy_evaluations;
  `,
  // A key-level IP allowlist lives only as long as some API key of its organization has that public
  // key: whichever way the last one goes (delete_api_keys, delete_users, a session key replaced, an
  // expiring key evicted, the organization deleted), its list goes too, so a key added again with the
  // same public key starts without one. Lists already orphaned are dropped here.
  `
  DELETE FROM ip_allowlists WHERE public_key <> ''
    AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.org_id = ip_allowlists.org_id AND k.public_key = ip_allowlists.public_key);
  CREATE TRIGGER IF NOT EXISTS api_keys_drop_ip_allowlist AFTER DELETE ON api_keys
    WHEN NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.org_id = OLD.org_id AND k.public_key = OLD.public_key)
  BEGIN
    DELETE FROM ip_allowlists WHERE org_id = OLD.org_id AND public_key = OLD.public_key;
  END;
  `,
  // The webhook outbox is read and updated by seq (the rowid) only: its delivery ids need no unique
  // index, which cost every subscribed activity an insert at a random place (issue 13's latency goal).
  `
  CREATE TABLE webhook_deliveries_next (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    org_id TEXT NOT NULL,
    subject_org_id TEXT NOT NULL,
    endpoint_id TEXT,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER,
    history TEXT NOT NULL,
    note TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  INSERT INTO webhook_deliveries_next SELECT seq, id, event_id, event_type, org_id, subject_org_id, endpoint_id, url, body, status, attempts, next_attempt_at, history, note, created_at, updated_at FROM webhook_deliveries;
  DELETE FROM sqlite_sequence WHERE name = 'webhook_deliveries_next';
  INSERT INTO sqlite_sequence (name, seq) SELECT 'webhook_deliveries_next', seq FROM sqlite_sequence WHERE name = 'webhook_deliveries';
  DROP TABLE webhook_deliveries;
  ALTER TABLE webhook_deliveries_next RENAME TO webhook_deliveries;
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
  `,
  // OTP requests per userIdentifier (3 per 3 minutes, families/sessions/otp.ts): counted from here.
  `
  ALTER TABLE otps ADD COLUMN user_identifier TEXT;
  CREATE INDEX otps_user_identifier ON otps(user_identifier, created_at) WHERE user_identifier IS NOT NULL;
  `,
  // Velocity controls (docs/velocity-controls.md): the definitions, and what each completed activity
  // contributed to a control (one row per control and activity), read back over the control's window.
  `
  CREATE TABLE velocity_controls (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    identifier TEXT NOT NULL,
    data_source TEXT NOT NULL,
    aggregation TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX velocity_controls_identifier ON velocity_controls(org_id, identifier);
  CREATE TABLE velocity_control_points (
    control_id TEXT NOT NULL REFERENCES velocity_controls(id) ON DELETE CASCADE,
    activity_id TEXT NOT NULL,
    org_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    wallet_id TEXT,
    amount TEXT NOT NULL,
    count INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (control_id, activity_id)
  );
  CREATE INDEX velocity_control_points_at ON velocity_control_points(control_id, at);
  `,
  // TVC operators and quorum keys (issue 31): an operator's key source and, for one whose keys are
  // accounts of an organization wallet, the wallet and the two account paths; quorum keys with
  // their master seed sealed, the seed's Shamir shares each encrypted to one operator, and the
  // quorum key shares operators posted to a deployment.
  `
  ALTER TABLE tvc_operators ADD COLUMN key_source TEXT;
  ALTER TABLE tvc_operators ADD COLUMN wallet_id TEXT;
  ALTER TABLE tvc_operators ADD COLUMN encrypt_path TEXT;
  ALTER TABLE tvc_operators ADD COLUMN sign_path TEXT;

  CREATE TABLE tvc_quorum_keys (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    public_key TEXT NOT NULL,
    threshold INTEGER NOT NULL,
    operator_ids TEXT NOT NULL,
    seed_sealed TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX tvc_quorum_keys_org ON tvc_quorum_keys(org_id, created_at);

  CREATE TABLE tvc_quorum_key_shares (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    quorum_key_id TEXT NOT NULL REFERENCES tvc_quorum_keys(id) ON DELETE CASCADE,
    operator_id TEXT NOT NULL,
    encrypted_share TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX tvc_quorum_key_shares_key ON tvc_quorum_key_shares(quorum_key_id);

  CREATE TABLE tvc_provisioning_shares (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    deployment_id TEXT NOT NULL REFERENCES tvc_deployments(id) ON DELETE CASCADE,
    operator_id TEXT NOT NULL,
    ephemeral_public_key TEXT NOT NULL,
    re_encrypted_share TEXT NOT NULL,
    signature TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (deployment_id, operator_id)
  );
  `,
  // Earn (docs/earn.md): wrappers deployed per top-level organization, and the requests whose
  // transactions the status queries follow. Re-runnable (IF NOT EXISTS).
  `
  CREATE TABLE IF NOT EXISTS earn_wrappers (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    caip2 TEXT NOT NULL,
    wrapper_address TEXT NOT NULL,
    vault_address TEXT NOT NULL,
    client_fee_bps INTEGER NOT NULL,
    client_fee_wallet TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (org_id, caip2, vault_address)
  );
  CREATE INDEX IF NOT EXISTS earn_wrappers_address ON earn_wrappers(wrapper_address COLLATE NOCASE);

  CREATE TABLE IF NOT EXISTS earn_requests (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    activity_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    caip2 TEXT NOT NULL,
    tx_hash TEXT NOT NULL,
    sponsored INTEGER NOT NULL DEFAULT 0,
    fee TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS earn_requests_org ON earn_requests(org_id, created_at);
  `,
  // Swaps on the local pools (issue 33): each quote create_swap_quote priced (its economics are what
  // execute_swap must restate), and each execution of one (at most one per quote). Re-runnable.
  `
  CREATE TABLE IF NOT EXISTS swap_quotes (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    activity_id TEXT NOT NULL,
    sign_with TEXT NOT NULL,
    caip2 TEXT NOT NULL,
    input_token TEXT NOT NULL,
    output_token TEXT NOT NULL,
    input_amount TEXT NOT NULL,
    output_amount TEXT NOT NULL,
    min_output_amount TEXT NOT NULL,
    slippage_bps TEXT NOT NULL,
    client_fee_bps TEXT NOT NULL,
    client_fee TEXT NOT NULL,
    turnkey_fee TEXT NOT NULL,
    fee_receiver TEXT,
    provider TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS swaps (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    quote_id TEXT NOT NULL UNIQUE,
    activity_id TEXT NOT NULL,
    caip2 TEXT NOT NULL,
    from_address TEXT NOT NULL,
    sponsored INTEGER NOT NULL,
    send_transaction_id TEXT,
    tx_hash TEXT,
    error TEXT,
    created_at INTEGER NOT NULL
  );
  `,
  // Authentication switches are organization features (issue 44, families/organizations/auth-features.ts): an
  // organization made before this holds each one, unless its sub-organization flags turned it
  // off, so that OTP, SMS, email auth and email recovery keep working where they did.
  `
  UPDATE organizations SET features = (
    WITH switches(name, flag, n) AS (VALUES
      ('FEATURE_NAME_OTP_EMAIL_AUTH', 'disableOtpEmailAuth', 1),
      ('FEATURE_NAME_SMS_AUTH', 'disableSmsAuth', 2),
      ('FEATURE_NAME_EMAIL_AUTH', 'disableEmailAuth', 3),
      ('FEATURE_NAME_EMAIL_RECOVERY', 'disableEmailRecovery', 4))
    SELECT json_group_array(json(v)) FROM (
      SELECT f.value AS v, 0 AS n, f.key AS k FROM json_each(organizations.features) AS f
      UNION ALL
      SELECT json_object('name', s.name, 'value', ''), s.n, 0 FROM switches AS s
      WHERE NOT EXISTS (SELECT 1 FROM json_each(organizations.features) AS g WHERE json_extract(g.value, '$.name') = s.name)
        AND NOT coalesce((SELECT json_extract(o.settings, '$.' || s.flag) FROM sub_organizations AS o WHERE o.org_id = organizations.id), 0)
      ORDER BY n, k
    )
  );
  `,
  // Whether an activity asked for app proofs, read from its parsed request (any spelling protobuf's
  // JSON mapping accepts) instead of from its stamped body on every read. Rows written before: those
  // with proofs recorded asked; an activity still open asked when its stamped body says so.
  `
  ALTER TABLE activities ADD COLUMN asks_app_proofs INTEGER NOT NULL DEFAULT 0;
  UPDATE activities SET asks_app_proofs = 1
    WHERE id IN (SELECT activity_id FROM app_proofs)
      OR (status IN ('ACTIVITY_STATUS_PENDING', 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED')
        AND votes LIKE '%generateAppProofs\\":true%');
  `,
  // The last one (issue 40): from here on each migration is named, declared beside its tables (the
  // core's below, a family's in its family.ts) and recorded here once applied (migrations.ts).
  // Re-runnable. An emulator older than this one refuses the database (schema version 30).
  `
  CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL);
  `,
];

/**
 * The core's named migrations, applied after the baseline and before the families', in this
 * order, each recorded once as `core/<id>`. Append only: never edit, reorder or remove one a
 * database may have applied.
 */
export const CORE_MIGRATIONS: readonly { id: string; sql: string }[] = [];
