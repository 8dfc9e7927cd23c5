/**
 * Wallets & keys of one organization: each wallet with its accounts (address, format, curve,
 * derivation path, public key) and the private keys with their addresses in every format and
 * tags, from GET /emulator/v1/organizations/{id}.
 */
import { get } from "../lib/api.js";
import { copyable, errorNotice, fill, h, idCopy, table, time } from "../lib/dom.js";
import { fillOrgSelect } from "../lib/orgs.js";

/** ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH -> BITCOIN_MAINNET_P2WPKH. @param {string} f */
const fmt = (f) => f.replace(/^ADDRESS_FORMAT_/, "");
/** @param {string} c */
const curve = (c) => c.replace(/^CURVE_/, "");

/** @param {any} d */
function render(d) {
  const tagName = (/** @type {string} */ id) => d.tagNames[id] ?? id;
  return [
    h("h3", { text: `Wallets (${d.wallets.length})` }),
    d.wallets.length
      ? d.wallets.map((/** @type {any} */ w) =>
          h(
            "div",
            { class: "panel wallet", dataset: { wallet: w.walletId } },
            h("h2", null, w.walletName, " ", h("span", { class: "muted", text: [w.imported ? "imported" : "", w.exported ? "exported" : ""].filter(Boolean).join(", ") })),
            h("div", null, copyable(w.walletId, "id"), h("span", { class: "muted", text: ` · created ${time(w.createdAt)}` })),
            table(
              ["address", "format", "curve", "path", "public key"],
              w.accounts.map((/** @type {any} */ a) => [copyable(a.address), fmt(a.addressFormat), curve(a.curve), h("span", { class: "mono", text: a.path }), idCopy(a.publicKey)]),
              "no accounts",
            ),
          ),
        )
      : h("div", { class: "empty", text: "no wallets" }),
    h("h3", { text: `Private keys (${d.privateKeys.length})` }),
    table(
      ["name", "id", "curve", "addresses", "tags", "public key"],
      d.privateKeys.map((/** @type {any} */ k) => [
        h("span", null, k.privateKeyName, k.imported ? h("span", { class: "muted", text: " imported" }) : null, k.exported ? h("span", { class: "muted", text: " exported" }) : null),
        idCopy(k.privateKeyId),
        curve(k.curve),
        k.addresses.length ? k.addresses.map((/** @type {any} */ a) => h("div", null, h("span", { class: "tag", text: fmt(a.format) }), " ", copyable(a.address))) : h("span", { class: "muted", text: "none" }),
        k.privateKeyTags.map((/** @type {string} */ t) => h("span", { class: "tag", title: t, text: tagName(t) })),
        idCopy(k.publicKey),
      ]),
      "no private keys",
    ),
  ];
}

export default {
  id: "wallets",
  title: "Wallets & keys",
  /** @param {HTMLElement} root @param {import("../app.js").Ctx} ctx @param {string | undefined} arg */
  mount(root, ctx, arg) {
    if (arg) ctx.orgId = arg;
    const select = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "organization", onchange: () => ctx.go(`#wallets/${select.value}`) }));
    const body = h("div");
    fill(root, h("div", { class: "toolbar" }, "Organization ", select), body);
    const view = {
      async refresh() {
        try {
          ctx.orgId = fillOrgSelect(select, await ctx.organizations(), ctx.orgId);
          if (ctx.orgId) fill(body, render(await get(`/organizations/${encodeURIComponent(ctx.orgId)}`)));
        } catch (err) {
          fill(body, errorNotice(err));
        }
      },
      /** @param {string | undefined} a */
      update(a) {
        if (a) ctx.orgId = a;
        void view.refresh();
      },
    };
    return view;
  },
};
