/**
 * `GET /emulator/v1/organizations`: every organization as a tree (top-level ones with their
 * sub-organizations), with counts; `GET /emulator/v1/organizations/{id}`: one organization
 * with its users (contacts, credentials), root quorum, features, tags, wallets with their
 * accounts, private keys, policies and auth-proxy configuration, in the wire forms the
 * public API uses. Read-only; what the UI's Organizations and Wallets tabs show.
 */
import { Router } from "express";
import type { Runtime } from "../../core/runtime.js";
import { notFound } from "../../core/errors.js";
import { handle } from "../../core/http/control-routes.js";
import { holdsKeyFor } from "./ui-votes.js";
import { renderTag, renderUser } from "../../core/views/users.js";
import { privateKeysOf, renderPrivateKey, renderWallet, renderWalletAccount, walletAccountsOf, walletCountsByOrganization, walletsOf } from "../wallets/index.js";
import { renderPolicy } from "../policies/index.js";
import { toTimestamp } from "../../core/clock.js";
import { authProxyOf } from "../auth-proxy/index.js";

export type OrganizationNode = {
  organizationId: string;
  organizationName: string;
  parentOrganizationId: string | null;
  deleted: boolean;
  counts: OrganizationCounts;
  subOrganizations: OrganizationNode[];
};

export type OrganizationCounts = { users: number; wallets: number; privateKeys: number; policies: number; activities: number };

/** Each organization's counts, read once for every organization (one grouped count per table). */
function countsOf(rt: Runtime): (orgId: string) => OrganizationCounts {
  const { store } = rt;
  const { wallets, privateKeys } = walletCountsByOrganization(rt);
  const per = { users: store.users.countsByOrg(), wallets, privateKeys, policies: store.policies.countsByOrg(), activities: store.activities.countsByOrg() };
  return (orgId) => ({
    users: per.users.get(orgId) ?? 0,
    wallets: per.wallets.get(orgId) ?? 0,
    privateKeys: per.privateKeys.get(orgId) ?? 0,
    policies: per.policies.get(orgId) ?? 0,
    activities: per.activities.get(orgId) ?? 0,
  });
}

/** The organization tree: top-level organizations (oldest first), each with its sub-organizations. */
export function organizationTree(rt: Runtime): OrganizationNode[] {
  const counts = countsOf(rt);
  const deleted = rt.store.subOrganizations.deletedIds();
  const nodes = new Map<string, OrganizationNode>();
  const organizations = rt.store.organizations.all();
  for (const o of organizations) {
    nodes.set(o.id, { organizationId: o.id, organizationName: o.name, parentOrganizationId: o.parentId, deleted: deleted.has(o.id), counts: counts(o.id), subOrganizations: [] });
  }
  const roots: OrganizationNode[] = [];
  for (const o of organizations) {
    const node = nodes.get(o.id)!;
    const parent = o.parentId ? nodes.get(o.parentId) : undefined;
    if (parent) parent.subOrganizations.push(node);
    else roots.push(node);
  }
  return roots;
}

/** One organization and everything in it. */
export function organizationDetail(rt: Runtime, id: string): Record<string, unknown> {
  const { store } = rt;
  const org = store.organizations.get(id);
  if (!org) throw notFound(`organization not found: ${id}`);
  const tagNames = new Map([...store.tags.list(id, "TAG_TYPE_USER"), ...store.tags.list(id, "TAG_TYPE_PRIVATE_KEY")].map((t) => [t.id, t.name]));
  return {
    organization: {
      organizationId: org.id,
      organizationName: org.name,
      parentOrganizationId: org.parentId,
      deleted: store.subOrganizations.isDeleted(org.id),
      rootQuorum: { threshold: org.rootQuorumThreshold, userIds: org.rootUserIds },
      features: org.features,
      subOrganizationIds: store.organizations.children(org.id).map((c) => c.id),
      ...(org.parentId ? { subOrganizationSettings: store.subOrganizations.settings(org.id) } : {}),
      createdAt: toTimestamp(org.createdAt),
    },
    users: store.users.list(id).map((u) => ({
      ...renderUser(store, u),
      emailVerified: u.emailVerified,
      phoneVerified: u.phoneVerified,
      root: org.rootUserIds.includes(u.id),
      /** The emulator can vote as this user (it holds the private half of one of the user's API keys). */
      emulatorHoldsKey: holdsKeyFor(rt, u.id),
    })),
    userTags: store.tags.list(id, "TAG_TYPE_USER").map(renderTag),
    privateKeyTags: store.tags.list(id, "TAG_TYPE_PRIVATE_KEY").map(renderTag),
    tagNames: Object.fromEntries(tagNames),
    wallets: walletsOf(rt, id).map((w) => ({ ...renderWallet(w), accounts: walletAccountsOf(rt, id, w.id).map((a) => renderWalletAccount(a)) })),
    privateKeys: privateKeysOf(rt, id).map((k) => renderPrivateKey(k, store.tags.tagsOf(k.id))),
    policies: store.policies.list(id).map(renderPolicy),
    // Never the proxy key: its id, user and settings only.
    authProxy: authProxyOf(rt, id),
  };
}

export function organizationsRouter(rt: Runtime): Router {
  const router = Router();
  router.get(
    "/emulator/v1/organizations",
    handle((_req, res) => {
      res.json({ organizations: organizationTree(rt) });
    }),
  );
  router.get(
    "/emulator/v1/organizations/:id",
    handle((req, res) => {
      res.json(organizationDetail(rt, String(req.params.id)));
    }),
  );
  return router;
}
