/**
 * Sub-organizations: create_sub_organization (V8; V7 bodies parse too; V1-V6 mapped onto it)
 * and delete_sub_organization (export rule). Root users get their API keys, passkeys and OAuth
 * providers; an optional HD wallet (V4 on) or private keys (V3) are created inside the new
 * sub-organization.
 */
import { invalidArgument } from "../../core/errors.js";
import { createUser, type UserParams, addOauthProviders, type OauthProviderParams } from "../users/index.js";
import { createWallet, privateKeysOf, walletsOf } from "../wallets/index.js";
import { checkName, INVALID_ACTIVITY_CALLER } from "../../core/vocabulary/lookups.js";
import { initialAuthFeatures } from "../organizations/index.js";
import { consumeVerificationToken } from "../../core/auth/verification-tokens.js";
import { sameEmail, samePhone } from "../../core/auth/contacts.js";
import type { AccountParams } from "../wallets/index.js";
import type { ClientSignature } from "../../bundles/index.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { addressDerivations } from "../app-proofs/index.js";
import { ALLOWANCE, NEW_USER_CREDENTIALS } from "../../limits/request-limits.js";
import { createPrivateKeys } from "../wallets/index.js";
import type { IntentOf } from "../../core/vocabulary/define.js";
import { asP256Keys, inOlderFields } from "../../core/vocabulary/older-intents.js";


type RootUserParams = Omit<UserParams, "oauthProviders" | "userTags"> & { oauthProviders: OauthProviderParams[] };

export type CreateSubOrganizationParams = {
  subOrganizationName: string;
  rootUsers: RootUserParams[];
  rootQuorumThreshold: number;
  wallet?: { walletName: string; accounts: AccountParams[]; mnemonicLength?: number };
  disableEmailRecovery?: boolean;
  disableEmailAuth?: boolean;
  disableSmsAuth?: boolean;
  disableOtpEmailAuth?: boolean;
  verificationToken?: string;
  clientSignature?: ClientSignature;
};

export function createSubOrganization(ctx: ActivityContext, p: CreateSubOrganizationParams) {
  const { store } = ctx.rt;
  if (ctx.org.parentId) throw invalidArgument(INVALID_ACTIVITY_CALLER, undefined, "INVALID_ACTIVITY_CALLER");
  checkName(p.subOrganizationName, "parameters.subOrganizationName");
  if (!p.rootUsers.length) throw invalidArgument("rootUsers must not be empty", "parameters.rootUsers");
  if (!Number.isInteger(p.rootQuorumThreshold) || p.rootQuorumThreshold < 1 || p.rootQuorumThreshold > p.rootUsers.length)
    throw invalidArgument(`rootQuorumThreshold must be between 1 and the number of root users (${p.rootUsers.length})`, "parameters.rootQuorumThreshold");
  const emailLogin = !(p.disableEmailAuth && p.disableOtpEmailAuth);
  p.rootUsers.forEach((u, i) => {
    const hasCredential =
      u.apiKeys.length > 0 || u.authenticators.length > 0 || u.oauthProviders.length > 0 || (!!u.userEmail && emailLogin) || (!!u.userPhoneNumber && !p.disableSmsAuth);
    if (!hasCredential)
      throw invalidArgument(
        "root user needs at least one credential: an API key, an authenticator, an OAuth provider, or an email or phone number with a login method enabled",
        `parameters.rootUsers[${i}]`,
      );
  });
  // A verification token proves the contact of the root user it names (signup flows).
  const verified = p.verificationToken
    ? consumeVerificationToken(ctx, p.verificationToken, "parameters.verificationToken", { clientSignature: p.clientSignature, usage: "USAGE_TYPE_SIGNUP" })
    : undefined;

  const subOrganizationId = ctx.rt.random.uuid();
  const settings = { disableEmailRecovery: p.disableEmailRecovery, disableEmailAuth: p.disableEmailAuth, disableSmsAuth: p.disableSmsAuth, disableOtpEmailAuth: p.disableOtpEmailAuth };
  store.organizations.insert({
    id: subOrganizationId,
    name: p.subOrganizationName,
    parentId: ctx.org.id,
    rootQuorumThreshold: p.rootQuorumThreshold,
    rootUserIds: [],
    // Each authentication method its flags leave on is a feature remove_organization_feature can switch off.
    features: initialAuthFeatures(settings),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  store.subOrganizations.create(subOrganizationId, settings);
  const rootUserIds = p.rootUsers.map((u, i) => {
    const field = `parameters.rootUsers[${i}]`;
    const id = createUser(ctx, subOrganizationId, { ...u, oauthProviders: [] }, field);
    addOauthProviders(ctx, subOrganizationId, id, u.oauthProviders, `${field}.oauthProviders`);
    if (verified) {
      const email = verified.verificationType === "OTP_TYPE_EMAIL" && !!u.userEmail && sameEmail(u.userEmail, verified.contact);
      const phone = verified.verificationType === "OTP_TYPE_SMS" && !!u.userPhoneNumber && samePhone(u.userPhoneNumber, verified.contact);
      if (email) store.users.update(id, { emailVerified: true }, ctx.now);
      if (phone) store.users.update(id, { phoneVerified: true }, ctx.now);
    }
    return id;
  });
  store.organizations.update(subOrganizationId, { rootUserIds }, ctx.now);
  const wallet = p.wallet ? createWallet(ctx, subOrganizationId, p.wallet, "parameters.wallet") : undefined;
  return { subOrganizationId, ...(wallet ? { wallet } : {}), rootUserIds };
}

type RootUserBeforeCurves = IntentOf<"ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5">["rootUsers"][number] | IntentOf<"ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4">["rootUsers"][number];

/** Root users of V2-V5: their API keys are P-256 (no curveType then); before V5, no OAuth providers. */
const rootUsersBeforeCurves = (users: readonly RootUserBeforeCurves[]) =>
  users.map((u) => ({ ...u, apiKeys: asP256Keys(u.apiKeys), oauthProviders: "oauthProviders" in u ? u.oauthProviders : [] }));

/** The root user of V1, which names only its passkey (one user, quorum 1); the service's name for it is not published (docs/activity-versions.md). */
const FIRST_ROOT_USER_NAME = "Root user";

export const subOrganizationOperations = [
  defineActivity("create_sub_organization", {
    policy: { resource: "ORGANIZATION", action: "CREATE", source: "documented" },
    arrayLimits: { rootUsers: ALLOWANCE.usersPerOrganization, ...NEW_USER_CREDENTIALS, accounts: ALLOWANCE.accountsPerRequest, privateKeys: ALLOWANCE.privateKeysPerOrganization },
    legacy: ["ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7"],
    // docs/activity-versions.md: what each older version asks, as V8's parameters.
    olderVersions: {
      ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6: { params: (p) => p },
      ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5: { params: (p) => ({ ...p, rootUsers: rootUsersBeforeCurves(p.rootUsers) }) },
      ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4: { params: (p) => ({ ...p, rootUsers: rootUsersBeforeCurves(p.rootUsers) }) },
      ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3: {
        params: ({ privateKeys: _, ...p }) => ({ ...p, rootUsers: rootUsersBeforeCurves(p.rootUsers) }),
        // V3 makes private keys (not a wallet) in the new sub-organization, and answers them.
        run(ctx, p, current) {
          const made = current() as { subOrganizationId: string; rootUserIds: string[] };
          const org = ctx.rt.store.organizations.get(made.subOrganizationId)!;
          const keys = p.privateKeys.length ? createPrivateKeys({ ...ctx, org }, p.privateKeys) : [];
          return { ...made, privateKeys: keys.map((k) => ({ privateKeyId: k.id, addresses: k.addresses })) };
        },
      },
      ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2: { params: (p) => ({ ...p, rootUsers: rootUsersBeforeCurves(p.rootUsers) }) },
      ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION: {
        params: (p) => ({
          subOrganizationName: p.name,
          rootUsers: [{ userName: FIRST_ROOT_USER_NAME, apiKeys: [], authenticators: [p.rootAuthenticator], oauthProviders: [] }],
          rootQuorumThreshold: 1,
        }),
        run: (_ctx, _p, current) =>
          inOlderFields(
            [
              ["parameters.subOrganizationName", "parameters.name"],
              ["parameters.rootUsers[0].authenticators[0]", "parameters.rootAuthenticator"],
            ],
            current,
          ),
      },
    },
    proxyForwarded: true,
    // The wallet it creates, in the new sub-organization.
    appProofs: (intent, result) => {
      const wallet = result.wallet as { walletId?: unknown; addresses?: unknown } | undefined;
      return wallet && typeof result.subOrganizationId === "string" ? addressDerivations(result.subOrganizationId, wallet.walletId, wallet.addresses, intent.wallet?.accounts) : [];
    },
    run(ctx, p) {
      return createSubOrganization(ctx, p);
    },
  }),

  defineActivity("delete_sub_organization", {
    policy: { resource: "ORGANIZATION", action: "DELETE", source: "documented" },
    run(ctx, p) {
      const { store } = ctx.rt;
      if (!ctx.org.parentId) throw invalidArgument("delete_sub_organization must target a sub-organization, initiated by one of its users", "organizationId");
      if (!p.deleteWithoutExport) {
        const wallet = walletsOf(ctx.rt, ctx.org.id).find((w) => !w.exported);
        const key = privateKeysOf(ctx.rt, ctx.org.id).find((k) => !k.exported);
        const what = wallet ? `wallet ${wallet.id}` : key ? `private key ${key.id}` : undefined;
        if (what)
          throw invalidArgument(
            `${what} has not been exported; export every wallet and private key first or set deleteWithoutExport to delete the sub-organization anyway`,
            "parameters.deleteWithoutExport",
            "WALLET_ACCOUNT_NOT_EXPORTED",
          );
      }
      for (const w of walletsOf(ctx.rt, ctx.org.id)) ctx.rt.keyring.forget(w.id);
      store.subOrganizations.tombstone(ctx.org.id, ctx.now);
      return { subOrganizationUuid: ctx.org.id };
    },
  }),
];
