/**
 * Webhooks: every delivery of the webhook outbox (GET /emulator/v1/webhooks/deliveries),
 * newest first, filtered by status: event type, endpoint URL, attempts with their answers,
 * what is still pending and why a delivery settled as it did, and the payload sent.
 */
import { get } from "../lib/api.js";
import { badge, errorNotice, fill, h, json, shortId, table, time } from "../lib/dom.js";

const STATUSES = ["PENDING", "DELIVERED", "FAILED", "CANCELED"];

/** @param {any} d */
function detail(d) {
  return h(
    "div",
    { class: "delivery-detail" },
    h("h3", { text: "Attempts" }),
    table(
      ["when", "outcome", "status", "error", "ms"],
      d.history.map((/** @type {any} */ a) => [h("span", { class: "mono", text: time(a.at) }), a.outcome, a.statusCode ?? "", a.error ?? "", String(a.durationMs)]),
      d.nextAttemptAt ? `no attempt yet: the first is due at ${time(d.nextAttemptAt)}` : "no attempts",
    ),
    d.note ? h("div", { class: "notice", text: d.note }) : null,
    h("h3", { text: "Payload" }),
    json(d.payload),
  );
}

export default {
  id: "webhooks",
  title: "Webhooks",
  /** @param {HTMLElement} root */
  mount(root) {
    let open = /** @type {string | undefined} */ (undefined);
    const status = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "status", onchange: () => void view.refresh() }, h("option", { value: "", text: "all statuses" }), STATUSES.map((s) => h("option", { value: s, text: s }))));
    const countEl = h("span", { class: "muted" });
    const list = h("div", { class: "panel" });
    fill(root, h("div", { class: "toolbar" }, status, countEl), list);
    const view = {
      async refresh() {
        try {
          const r = await get("/webhooks/deliveries", { status: status.value, limit: 300 });
          /** @type {any[]} */
          const rows = r.deliveries.slice().reverse();
          countEl.textContent = `${rows.length} deliveries, newest first`;
          fill(
            list,
            table(
              ["created", "event", "status", "attempts", "endpoint", "organization", "event id"],
              rows.flatMap((d) => {
                const row = h(
                  "tr",
                  { class: `row${d.deliveryId === open ? " selected" : ""}`, dataset: { id: d.deliveryId }, onclick: () => ((open = open === d.deliveryId ? undefined : d.deliveryId), void view.refresh()) },
                  [h("span", { class: "mono", text: time(d.createdAt) }), d.eventType, badge(d.status), String(d.attempts), h("span", { class: "mono", text: d.url }), shortId(d.organizationId), shortId(d.eventId)].map((c) => h("td", null, c)),
                );
                return d.deliveryId === open ? [row, h("tr", null, h("td", { colspan: 7 }, detail(d)))] : [row];
              }),
              "no deliveries: register a webhook endpoint and its events are delivered here",
            ),
          );
        } catch (err) {
          fill(list, /** @type {any} */ (err)?.status === 404 ? h("div", { class: "empty", text: "this emulator has no webhook deliveries route" }) : errorNotice(err));
        }
      },
    };
    return view;
  },
};
