/**
 * Policies of one organization, and "would this be allowed?": a pasted activity (a request
 * body, or an activity as get_activity returns it) run through the engine's own decision by
 * POST /emulator/v1/policies/evaluate, as a chosen proposer with optional extra approvers.
 * Nothing is recorded.
 */
import { get, post } from "../lib/api.js";
import { badge, errorNotice, fill, h, idCopy, shortId, table } from "../lib/dom.js";
import { fillOrgSelect } from "../lib/orgs.js";

/** An example to start from: signing with the organization's first account, else creating a wallet. @param {any} d */
function example(d) {
  const account = d.wallets.flatMap((/** @type {any} */ w) => w.accounts)[0];
  const body = account
    ? { type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", organizationId: d.organization.organizationId, parameters: { signWith: account.address, payload: "hello", encoding: "PAYLOAD_ENCODING_TEXT_UTF8", hashFunction: account.addressFormat === "ADDRESS_FORMAT_ETHEREUM" ? "HASH_FUNCTION_KECCAK256" : "HASH_FUNCTION_NOT_APPLICABLE" } }
    : { type: "ACTIVITY_TYPE_CREATE_WALLET", organizationId: d.organization.organizationId, parameters: { walletName: "new wallet", accounts: [] } };
  return JSON.stringify(body, null, 2);
}

/** @param {any} r */
function outcome(r) {
  return h(
    "div",
    { class: "evaluation-result" },
    h("div", { class: `notice ${r.outcome === "ALLOWED" ? "ok" : r.outcome === "DENIED" ? "bad" : ""}` }, h("strong", null, badge(r.outcome, "o")), ` a submission would be ${r.status.replace("ACTIVITY_STATUS_", "")}`, r.failure ? `: ${r.failure.message}` : ""),
    r.policyEvaluations.length
      ? table(
          ["policy", "id", "outcome"],
          r.policyEvaluations.map((/** @type {any} */ e) => [e.policyName ?? "", shortId(e.policyId), badge(e.outcome, "o")]),
        )
      : h("div", { class: "empty", text: "decided without policies (root quorum, or the user's own credentials)" }),
  );
}

export default {
  id: "policies",
  title: "Policies",
  /** @param {HTMLElement} root @param {import("../app.js").Ctx} ctx @param {string | undefined} arg */
  mount(root, ctx, arg) {
    if (arg) ctx.orgId = arg;
    let formOrg = "";
    const select = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "organization", onchange: () => ctx.go(`#policies/${select.value}`) }));
    const listEl = h("div");
    const text = /** @type {HTMLTextAreaElement} */ (h("textarea", { name: "activity", spellcheck: false, "aria-label": "activity JSON" }));
    const proposer = /** @type {HTMLSelectElement} */ (h("select", { name: "proposer", "aria-label": "proposer" }));
    const approvers = h("span", { class: "approvers" });
    const out = h("div");
    const evaluate = async () => {
      fill(out, h("span", { class: "muted", text: "evaluating…" }));
      try {
        const activity = JSON.parse(text.value);
        const approverIds = [...approvers.querySelectorAll("input:checked")].map((i) => /** @type {HTMLInputElement} */ (i).value);
        fill(out, outcome(await post("/policies/evaluate", { activity, userId: proposer.value, approverIds })));
      } catch (err) {
        fill(out, errorNotice(err instanceof SyntaxError ? new Error(`the activity is not JSON: ${err.message}`) : err));
      }
    };
    fill(
      root,
      h("div", { class: "toolbar" }, "Organization ", select),
      h(
        "div",
        { class: "split wide-left" },
        h("div", { class: "panel" }, h("h3", { text: "Policies" }), listEl),
        h(
          "div",
          { class: "panel" },
          h("h3", { text: "Would this be allowed?" }),
          text,
          h("div", { class: "toolbar" }, "proposed by ", proposer, " approved also by ", approvers),
          h("div", { class: "toolbar" }, h("button", { class: "primary", type: "button", text: "Evaluate", onclick: evaluate })),
          out,
        ),
      ),
    );
    const view = {
      async refresh() {
        try {
          ctx.orgId = fillOrgSelect(select, await ctx.organizations(), ctx.orgId);
          if (!ctx.orgId) return;
          const d = await get(`/organizations/${encodeURIComponent(ctx.orgId)}`);
          fill(
            listEl,
            table(
              ["name", "effect", "condition", "consensus", "notes", "id"],
              d.policies.map((/** @type {any} */ p) => [p.policyName, badge(p.effect.replace("EFFECT_", ""), "s"), h("code", { text: p.condition || "—" }), h("code", { text: p.consensus || "—" }), p.notes, idCopy(p.policyId)]),
              "no policies: only root users (and users acting on their own credentials) are allowed",
            ),
          );
          if (formOrg !== ctx.orgId) {
            // A new organization: new example and users; otherwise the form is left as the user edits it.
            formOrg = ctx.orgId;
            text.value = example(d);
            fill(out);
            const keep = proposer.value;
            fill(proposer, d.users.map((/** @type {any} */ u) => h("option", { value: u.userId, text: `${u.userName}${u.root ? " (root)" : ""}` })));
            if (d.users.some((/** @type {any} */ u) => u.userId === keep)) proposer.value = keep;
            else {
              const nonRoot = d.users.find((/** @type {any} */ u) => !u.root && u.apiKeys.length);
              if (nonRoot) proposer.value = nonRoot.userId;
            }
            fill(approvers, d.users.map((/** @type {any} */ u) => h("label", { class: "tag" }, h("input", { type: "checkbox", value: u.userId }), ` ${u.userName}`)));
          }
        } catch (err) {
          fill(listEl, errorNotice(err));
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


