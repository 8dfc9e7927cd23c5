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

/** Formats a base-unit integer with `decimals` places, trailing zeros dropped. @param {bigint} v @param {number} decimals */
export function formatUnits(v, decimals) {
  const base = 10n ** BigInt(decimals);
  const frac = (v % base).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${v / base}${frac ? `.${frac}` : ""}`;
}

/** The address formats whose balance a chain of this namespace reports. */
const BALANCE = /** @type {Record<string, { format: string }>} */ ({
  eip155: { format: "ADDRESS_FORMAT_ETHEREUM" },
  solana: { format: "ADDRESS_FORMAT_SOLANA" },
});

/**
 * What each address holds on a chain (the native coin, then every token with a balance: test
 * dollars, Earn wrapper shares...), through /emulator/v1/chains/{caip2}/holdings/{address}.
 * @param {any} chain @param {string[]} addresses @returns {Promise<Map<string, string>>}
 */
async function balances(chain, addresses) {
  const out = new Map();
  if (!BALANCE[chain.namespace]) return out;
  await Promise.all(
    addresses.map(async (address) => {
      const res = await fetch(`/emulator/v1/chains/${encodeURIComponent(chain.caip2)}/holdings/${encodeURIComponent(address)}`);
      const r = await res.json();
      out.set(address, res.ok ? r.holdings.map((/** @type {any} */ x) => `${x.display} ${x.symbol}`).join(" · ") : `error: ${r.message}`);
    }),
  );
  return out;
}

/** @param {any} d @param {Map<string, string> | null} bal */
function render(d, bal) {
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
              ["address", "format", "curve", "path", "public key", ...(bal ? ["balance"] : [])],
              w.accounts.map((/** @type {any} */ a) => [copyable(a.address), fmt(a.addressFormat), curve(a.curve), h("span", { class: "mono", text: a.path }), idCopy(a.publicKey), ...(bal ? [h("span", { class: "mono balance", text: bal.get(a.address) ?? "" })] : [])]),
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
        k.addresses.length
          ? k.addresses.map((/** @type {any} */ a) => h("div", null, h("span", { class: "tag", text: fmt(a.format) }), " ", copyable(a.address), bal?.get(a.address) ? h("span", { class: "mono balance", text: ` ${bal.get(a.address)}` }) : null))
          : h("span", { class: "muted", text: "none" }),
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
    // Balances only on request: a local chain starts on its first use.
    let chainId = "";
    const chainSel = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "chain", name: "chain", onchange: () => ((chainId = chainSel.value), void view.refresh()) }, h("option", { value: "", text: "no balances" })));
    const body = h("div");
    fill(root, h("div", { class: "toolbar" }, "Organization ", select, " Balances on ", chainSel), body);
    const view = {
      async refresh() {
        try {
          ctx.orgId = fillOrgSelect(select, await ctx.organizations(), ctx.orgId);
          const chains = (ctx.info?.chains ?? []).filter((/** @type {any} */ c) => BALANCE[c.namespace]);
          if (chainSel.options.length !== chains.length + 1) {
            fill(chainSel, h("option", { value: "", text: "no balances" }), chains.map((/** @type {any} */ c) => h("option", { value: c.caip2, text: `${c.caip2}${c.backend === "external" ? " (external)" : ""}` })));
            chainSel.value = chainId;
          }
          if (!ctx.orgId) return;
          const d = await get(`/organizations/${encodeURIComponent(ctx.orgId)}`);
          const chain = chains.find((/** @type {any} */ c) => c.caip2 === chainId);
          const addresses = [...d.wallets.flatMap((/** @type {any} */ w) => w.accounts), ...d.privateKeys.flatMap((/** @type {any} */ k) => k.addresses.map((/** @type {any} */ a) => ({ address: a.address, addressFormat: a.format })))]
            .filter((a) => chain && a.addressFormat === BALANCE[chain.namespace].format)
            .map((a) => a.address);
          fill(body, render(d, chain ? await balances(chain, [...new Set(addresses)]) : null));
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
