/**
 * Mailbox: every email and SMS the emulator "sent" (OTP codes, magic links, credential
 * bundles, invitations), newest first, per contact, each value copyable
 * (GET /emulator/v1/mailbox).
 */
import { get } from "../lib/api.js";
import { copyable, copyButton, errorNotice, fill, h, time } from "../lib/dom.js";

/** @param {any} m */
function message(m) {
  return h(
    "div",
    { class: "msg", dataset: { contact: m.contact, kind: m.kind ?? "" } },
    h("div", null, h("span", { class: "tag", text: m.channel }), " ", h("strong", { text: m.subject || "(no subject)" }), h("span", { class: "muted", text: ` to ${m.contact} · ${time(m.createdAt)}${m.kind ? ` · ${m.kind}` : ""}` })),
    m.otpCode ? h("div", null, "code ", h("span", { class: "otp", text: m.otpCode }), copyButton(m.otpCode), m.otpId ? h("span", { class: "muted" }, " otpId ", copyable(m.otpId, "id")) : null) : null,
    m.magicLink ? h("div", null, "magic link ", copyable(m.magicLink)) : null,
    m.credentialBundle ? h("div", null, "credential bundle ", copyable(m.credentialBundle, "id")) : null,
    m.invitationId ? h("div", null, "invitation ", copyable(m.invitationId, "id")) : null,
    h("div", { class: "muted" }, "organization ", h("a", { href: `#organizations/${m.organizationId}`, class: "mono", text: m.organizationId })),
    h("details", null, h("summary", { text: "message" }), h("pre", { text: m.body })),
  );
}

export default {
  id: "mailbox",
  title: "Mailbox",
  /** @param {HTMLElement} root @param {import("../app.js").Ctx} _ctx @param {string | undefined} arg */
  mount(root, _ctx, arg) {
    let contact = arg ?? "";
    const select = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "contact", onchange: () => ((contact = select.value), void view.refresh()) }));
    const countEl = h("span", { class: "muted" });
    const list = h("div", { class: "panel mailbox" });
    fill(root, h("div", { class: "toolbar" }, "Contact ", select, countEl), list);
    const view = {
      async refresh() {
        try {
          /** @type {any[]} */
          const all = (await get("/mailbox")).slice().reverse();
          const contacts = [...new Set(all.map((m) => m.contact))].sort();
          fill(select, h("option", { value: "", text: `all contacts (${contacts.length})` }), contacts.map((c) => h("option", { value: c, text: c })));
          select.value = contacts.includes(contact) ? contact : "";
          const shown = select.value ? all.filter((m) => m.contact === select.value) : all;
          countEl.textContent = `${shown.length} message${shown.length === 1 ? "" : "s"}, newest first`;
          fill(list, shown.length ? shown.map(message) : h("div", { class: "empty", text: "nothing sent yet: OTP codes, magic links and bundles land here" }));
        } catch (err) {
          fill(list, errorNotice(err));
        }
      },
      /** @param {string | undefined} a */
      update(a) {
        contact = a ?? "";
        void view.refresh();
      },
    };
    return view;
  },
};
