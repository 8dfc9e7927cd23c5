/**
 * Organizations: the tree (top-level organizations and their sub-organizations) and, for the
 * chosen one, its root quorum, features, auth-proxy configuration and users with contacts and
 * credentials (API keys, passkeys, OAuth), from GET /emulator/v1/organizations(/{id}).
 */
import { get } from "../lib/api.js";
import { copyable, errorNotice, fill, h, idCopy, json, kv, table, time } from "../lib/dom.js";

const CURVE = /** @type {Record<string, string>} */ ({
  CREDENTIAL_TYPE_API_KEY_P256: "P-256",
  CREDENTIAL_TYPE_API_KEY_SECP256K1: "secp256k1",
  CREDENTIAL_TYPE_API_KEY_ED25519: "ed25519",
});

/** @param {any} u */
function credentials(u) {
  const keys = u.apiKeys.map((/** @type {any} */ k) =>
    h("div", { class: "cred" }, h("span", { class: "tag", text: `API key · ${CURVE[k.credential.type] ?? k.credential.type}` }), ` ${k.apiKeyName} `, copyable(k.credential.publicKey), k.expirationSeconds ? h("span", { class: "muted", text: ` expires after ${k.expirationSeconds} s` }) : null),
  );
  const passkeys = u.authenticators.map((/** @type {any} */ a) => h("div", { class: "cred" }, h("span", { class: "tag", text: "passkey" }), ` ${a.authenticatorName} `, copyable(a.credentialId)));
  const oauth = u.oauthProviders.map((/** @type {any} */ p) => h("div", { class: "cred" }, h("span", { class: "tag", text: "OAuth" }), ` ${p.providerName} `, h("span", { class: "mono", text: `${p.issuer} · sub ${p.subject} · aud ${p.audience}` })));
  const all = [...keys, ...passkeys, ...oauth];
  return all.length ? all : h("span", { class: "muted", text: "none" });
}

/** @param {string | undefined} value @param {boolean} verified */
const contact = (value, verified) => (value ? h("span", null, copyable(value, "mono"), verified ? h("span", { class: "muted", title: "verified", text: " ✓" }) : h("span", { class: "muted", text: " (unverified)" })) : null);

/** @param {any} d */
function detail(d) {
  const o = d.organization;
  const tagName = (/** @type {string} */ id) => d.tagNames[id] ?? id;
  const userName = (/** @type {string} */ id) => d.users.find((/** @type {any} */ u) => u.userId === id)?.userName ?? id;
  return [
    h("h2", null, o.organizationName, o.deleted ? h("span", { class: "badge s-FAILED", text: "deleted" }) : null),
    kv([
      ["id", copyable(o.organizationId)],
      ["parent", o.parentOrganizationId ? h("a", { href: `#organizations/${o.parentOrganizationId}`, class: "mono", text: o.parentOrganizationId }) : "— (top-level)"],
      ["root quorum", h("span", null, `${o.rootQuorum.threshold} of ${o.rootQuorum.userIds.length}: `, o.rootQuorum.userIds.map((/** @type {string} */ id) => h("span", { class: "tag", title: id, text: userName(id) })))],
      ["features", o.features.length ? o.features.map((/** @type {any} */ f) => h("span", { class: "tag", text: `${f.name}${f.value ? `=${f.value}` : ""}` })) : h("span", { class: "muted", text: "none" })],
      ["sub-organizations", String(o.subOrganizationIds.length)],
      ["created", time(o.createdAt)],
      ["wallets & keys", h("a", { href: `#wallets/${o.organizationId}`, text: `${d.wallets.length} wallets, ${d.privateKeys.length} private keys →` })],
      ["policies", h("a", { href: `#policies/${o.organizationId}`, text: `${d.policies.length} policies →` })],
      ["activities", h("a", { href: `#activities/org:${o.organizationId}`, text: "activities →" })],
      ["sub-org settings", o.subOrganizationSettings ? h("span", { class: "mono", text: JSON.stringify(o.subOrganizationSettings) }) : null],
    ]),
    h("h3", { text: `Users (${d.users.length})` }),
    table(
      ["name", "id", "email", "phone", "credentials", "tags"],
      d.users.map((/** @type {any} */ u) => [
        h("span", { class: "nowrap" }, u.userName, " ", u.root ? h("span", { class: "badge", title: "member of the root quorum", text: "root" }) : null, u.emulatorHoldsKey ? h("span", { class: "devkey", title: "the emulator holds a dev key of this user: it can vote as them", text: "dev key" }) : null),
        idCopy(u.userId),
        contact(u.userEmail, u.emailVerified),
        contact(u.userPhoneNumber, u.phoneVerified),
        credentials(u),
        u.userTags.map((/** @type {string} */ t) => h("span", { class: "tag", title: t, text: tagName(t) })),
      ]),
      "no users",
    ),
    h("h3", { text: "Auth proxy" }),
    d.authProxy
      ? kv([
          ["config id", copyable(d.authProxy.configId)],
          ["enabled", d.authProxy.enabled ? "yes" : "no"],
          ["proxy user", h("span", { class: "mono", text: d.authProxy.proxyUserId })],
          ["settings", json(d.authProxy.settings)],
        ])
      : h("div", { class: "empty", text: o.parentOrganizationId ? "sub-organizations use their parent's auth proxy" : "never enabled" }),
    h("h3", { text: "Tags" }),
    d.userTags.length || d.privateKeyTags.length
      ? h("div", null, [...d.userTags, ...d.privateKeyTags].map((/** @type {any} */ t) => h("span", { class: "tag", title: `${t.tagType} ${t.tagId}`, text: `${t.tagName} (${t.tagType === "TAG_TYPE_USER" ? "user" : "key"})` })))
      : h("div", { class: "empty", text: "no tags" }),
  ];
}

/** @param {any[]} nodes @param {string | undefined} selected @param {string} filter */
function tree(nodes, selected, filter) {
  const f = filter.toLowerCase();
  /** @param {any} o @returns {boolean} */
  const matches = (o) => !f || o.organizationName.toLowerCase().includes(f) || o.organizationId.includes(f) || o.subOrganizations.some(matches);
  /** @param {any[]} list */
  const render = (list) =>
    h(
      "ul",
      { class: "tree" },
      list.filter(matches).map((o) =>
        h(
          "li",
          null,
          h("a", { href: `#organizations/${o.organizationId}`, class: o.organizationId === selected ? "active" : "", title: o.organizationId, dataset: { org: o.organizationId } }, o.deleted ? h("s", { text: o.organizationName }) : o.organizationName, h("span", { class: "count", text: `${o.counts.users}u ${o.counts.wallets}w ${o.counts.activities}a` })),
          o.subOrganizations.length ? render(o.subOrganizations) : null,
        ),
      ),
    );
  return render(nodes);
}

export default {
  id: "organizations",
  title: "Organizations",
  /** @param {HTMLElement} root @param {import("../app.js").Ctx} ctx @param {string | undefined} arg */
  mount(root, ctx, arg) {
    let selected = arg ?? ctx.orgId;
    const filter = h("input", { type: "search", placeholder: "filter organizations", oninput: () => void view.refresh() });
    const treeEl = h("div", { class: "org-tree" });
    const detailEl = h("div", { class: "panel org-detail" });
    fill(root, h("div", { class: "split" }, h("div", { class: "panel" }, h("div", { class: "toolbar" }, filter), treeEl), detailEl));
    const view = {
      async refresh() {
        try {
          const orgs = await ctx.organizations();
          if (!selected || !JSON.stringify(orgs).includes(`"${selected}"`)) selected = orgs[0]?.organizationId;
          ctx.orgId = selected;
          fill(treeEl, tree(orgs, selected, /** @type {HTMLInputElement} */ (filter).value));
          if (selected) fill(detailEl, detail(await get(`/organizations/${encodeURIComponent(selected)}`)));
        } catch (err) {
          fill(detailEl, errorNotice(err));
        }
      },
      /** @param {string | undefined} a */
      update(a) {
        selected = a ?? selected;
        void view.refresh();
      },
    };
    return view;
  },
};

