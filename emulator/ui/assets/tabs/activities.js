/**
 * Activities: a live list over every organization, filtered by organization, type, status and
 * user (GET /emulator/v1/activities), and the chosen activity in full: intent, result, votes,
 * failure and the policy evaluations that decided it (GET /emulator/v1/activities/{id}). A
 * CONSENSUS_NEEDED activity can be approved or rejected as a user of its organization
 * (POST /emulator/v1/activities/{id}/approve|reject), a vote like any other.
 */
import { get, post } from "../lib/api.js";
import { badge, copyable, errorNotice, fill, h, json, kv, shortId, shortType, table, time } from "../lib/dom.js";
import { fillOrgSelect } from "../lib/orgs.js";

const STATUSES = ["COMPLETED", "FAILED", "CONSENSUS_NEEDED", "REJECTED", "AUTHENTICATORS_NEEDED", "PENDING"];
const PAGE = 100;

/** @param {any} d */
function evaluations(d) {
  if (!d.policyEvaluations.length) return h("div", { class: "empty", text: "no policy evaluations recorded" });
  return d.policyEvaluations.map((/** @type {any} */ e) =>
    h(
      "div",
      { class: "evaluation" },
      h("div", { class: "muted", text: `${time(e.createdAt)}${e.voteId ? ` · after vote ${e.voteId.slice(0, 8)}` : ""}` }),
      e.evaluations.length
        ? table(
            ["policy", "id", "outcome"],
            e.evaluations.map((/** @type {any} */ x) => [x.policyName ?? h("span", { class: "muted", text: "(deleted policy)" }), shortId(x.policyId), badge(x.outcome, "o")]),
          )
        : h("div", { class: "empty", text: "decided without policies (root quorum or the user's own credentials)" }),
    ),
  );
}

/** @param {any} d */
function detail(d) {
  const a = d.activity;
  const proposer = a.votes[0]?.user;
  return [
    h("h2", null, shortType(a.type), " ", badge(a.status)),
    kv([
      ["id", copyable(a.id)],
      ["organization", h("a", { href: `#organizations/${a.organizationId}`, text: d.organizationName || a.organizationId })],
      ["proposed by", proposer ? h("span", null, proposer.userName, " ", shortId(proposer.userId)) : "—"],
      ["created", time(a.createdAt)],
      ["updated", time(a.updatedAt)],
      ["fingerprint", copyable(a.fingerprint, "id")],
      ["approvals expire", d.approvalWindow ? (d.approvalWindow.expired ? h("span", { class: "bad", text: `expired ${time(d.approvalWindow.expiresAt)}: approve again` }) : time(d.approvalWindow.expiresAt)) : null],
    ]),
    a.failure ? h("div", { class: "notice bad failure", role: "alert" }, h("strong", { text: "Failure: " }), a.failure.message, h("span", { class: "muted", text: ` (code ${a.failure.code})` })) : null,
    h("h3", { text: "Policy evaluations" }),
    evaluations(d),
    h("h3", { text: `Votes (${a.votes.length})` }),
    table(
      ["user", "vote", "credential", "when"],
      a.votes.map((/** @type {any} */ v) => [
        h("span", null, v.user?.userName || v.userId, " ", shortId(v.userId)),
        h("span", null, badge(v.selection.replace("VOTE_SELECTION_", ""), "s"), d.expiredVoteIds?.includes(v.id) ? h("span", { class: "muted", title: "approvals expire 24 hours after their window opened", text: " expired" }) : null),
        shortId(v.publicKey),
        time(v.createdAt),
      ]),
      "no votes",
    ),
    h("h3", { text: "Intent" }),
    json(a.intent),
    h("h3", { text: "Result" }),
    json(a.result),
  ];
}

/**
 * The approve / reject form for a CONSENSUS_NEEDED activity.
 * @param {any} d @param {HTMLElement} out where the vote's answer shows (it outlives the form) @param {() => void} after
 */
function voteForm(d, out, after) {
  const a = d.activity;
  const eligible = d.voters.filter((/** @type {any} */ v) => !v.vote);
  const select = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { "aria-label": "vote as", name: "voter" },
      eligible.map((/** @type {any} */ v) => h("option", { value: v.userId, text: `${v.userName}${v.root ? " (root)" : ""}${v.emulatorHoldsKey ? " — dev key held" : ""}` })),
    )
  );
  const preferred = eligible.find((/** @type {any} */ v) => v.emulatorHoldsKey);
  if (preferred) select.value = preferred.userId;
  const keyInput = /** @type {HTMLInputElement} */ (h("input", { type: "password", name: "apiPrivateKey", placeholder: "API private key (hex), if the emulator holds none for this user", size: 40, autocomplete: "off" }));
  /** @param {"approve" | "reject"} which */
  const vote = async (which) => {
    fill(out, h("span", { class: "muted", text: "voting…" }));
    try {
      const r = await post(`/activities/${encodeURIComponent(a.id)}/${which}`, { userId: select.value, ...(keyInput.value ? { apiPrivateKey: keyInput.value.trim() } : {}) });
      keyInput.value = "";
      fill(out, h("div", { class: "notice ok", role: "status" }, `Vote recorded as ${r.voter?.userId ?? select.value}: activity is now `, badge(r.activity.status)));
      after();
    } catch (err) {
      fill(out, errorNotice(err));
    }
  };
  return h(
    "div",
    { class: "panel vote" },
    h("h3", { text: "Vote" }),
    eligible.length
      ? h(
          "div",
          { class: "toolbar" },
          "as ",
          select,
          keyInput,
          h("button", { class: "primary", type: "button", text: "Approve", onclick: () => vote("approve") }),
          h("button", { class: "danger", type: "button", text: "Reject", onclick: () => vote("reject") }),
        )
      : h("div", { class: "empty", text: "every user of the organization has voted" }),
    h("div", { class: "muted", text: "Signed with that user's API key and sent to the coordinator as approve_activity / reject_activity: recorded like any vote. “dev key held”: the emulator holds a fixture key of that user; for others paste one of their API private keys." }),
  );
}

export default {
  id: "activities",
  title: "Activities",
  /** @param {HTMLElement} root @param {import("../app.js").Ctx} ctx @param {string | undefined} arg */
  mount(root, ctx, arg) {
    /** @type {{ org: string, type: string, status: string, userId: string }} */
    const filters = { org: "", type: "", status: "", userId: "" };
    let selected = /** @type {string | undefined} */ (undefined);
    let shown = PAGE;
    let voteKey = "";
    const apply = (/** @type {string | undefined} */ a) => {
      if (a?.startsWith("org:")) filters.org = a.slice(4);
      else if (a && a !== selected) {
        selected = a;
        fill(voteOut);
      }
    };

    const orgSel = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "organization", name: "org", onchange: () => ((filters.org = orgSel.value), (shown = PAGE), void view.refresh()) }));
    const typeSel = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "type", name: "type", onchange: () => ((filters.type = typeSel.value), (shown = PAGE), void view.refresh()) }, h("option", { value: "", text: "all types" })));
    const statusSel = /** @type {HTMLSelectElement} */ (
      h(
        "select",
        { "aria-label": "status", name: "status", onchange: () => ((filters.status = statusSel.value), (shown = PAGE), void view.refresh()) },
        h("option", { value: "", text: "all statuses" }),
        STATUSES.map((s) => h("option", { value: s, text: s })),
      )
    );
    let typing = /** @type {number | undefined} */ (undefined);
    const userIn = /** @type {HTMLInputElement} */ (
      h("input", {
        type: "search",
        name: "userId",
        placeholder: "user id",
        size: 38,
        oninput: () => {
          clearTimeout(typing);
          typing = setTimeout(() => ((filters.userId = userIn.value.trim()), (shown = PAGE), void view.refresh()), 250);
        },
      })
    );
    const countEl = h("span", { class: "muted" });
    const listEl = h("div", { class: "activity-list" });
    const moreEl = h("div");
    const detailEl = h("div", { class: "activity-detail" }, h("div", { class: "empty", text: "choose an activity" }));
    const voteEl = h("div");
    const voteOut = h("div", { class: "vote-result" });
    fill(
      root,
      h("div", { class: "toolbar" }, orgSel, typeSel, statusSel, userIn, countEl),
      h("div", { class: "split wide-left" }, h("div", { class: "panel" }, listEl, moreEl), h("div", { class: "panel" }, voteOut, voteEl, detailEl)),
    );
    apply(arg);

    const renderList = (/** @type {any} */ r) => {
      countEl.textContent = `${r.activities.length} of ${r.total}`;
      const keep = typeSel.value;
      fill(typeSel, h("option", { value: "", text: "all types" }), r.types.map((/** @type {string} */ t) => h("option", { value: t, text: shortType(t) })));
      typeSel.value = keep;
      const rows = r.activities.map((/** @type {any} */ a) =>
        h(
          "tr",
          { class: `row${a.id === selected ? " selected" : ""}`, dataset: { id: a.id }, onclick: () => ctx.go(`#activities/${a.id}`) },
          h("td", { class: "mono nowrap", title: time(a.createdAt), text: time(a.createdAt).slice(11) }),
          h("td", { text: shortType(a.type) }),
          h("td", null, badge(a.status)),
          h("td", { title: a.organizationId, text: a.organizationName }),
          h("td", { title: a.userId ?? "", text: a.userName ?? a.userId ?? "" }),
          h("td", { class: "muted", title: a.failure ?? "", text: a.failure ? a.failure.slice(0, 60) : a.votes > 1 ? `${a.votes} votes` : "" }),
        ),
      );
      fill(listEl, table(["created", "type", "status", "organization", "user", "note"], rows, "no activities match"));
      fill(moreEl, r.next ? h("button", { type: "button", text: `load ${PAGE} more`, onclick: () => ((shown += PAGE), void view.refresh()) }) : null);
    };

    const view = {
      async refresh() {
        try {
          // Independent reads go out together.
          const [orgs, r, d] = await Promise.all([
            ctx.organizations(),
            get("/activities", { organizationId: filters.org, type: filters.type, status: filters.status, userId: filters.userId, limit: Math.min(shown, 1000) }),
            selected ? get(`/activities/${encodeURIComponent(selected)}`) : null,
          ]);
          filters.org = fillOrgSelect(orgSel, orgs, filters.org, { any: "all organizations" });
          renderList(r);
          if (!d) return;
          fill(detailEl, detail(d));
          // The vote form is rebuilt only when the activity moves on, so a half-typed key survives live updates.
          const key = `${d.activity.id}:${d.activity.status}:${d.activity.votes.length}`;
          if (key !== voteKey) {
            voteKey = key;
            fill(voteEl, d.activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED" ? voteForm(d, voteOut, () => void view.refresh()) : null);
          }
        } catch (err) {
          fill(detailEl, errorNotice(err));
        }
      },
      /** @param {string | undefined} a */
      update(a) {
        apply(a);
        void view.refresh();
      },
    };
    return view;
  },
};
