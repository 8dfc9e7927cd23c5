/** Requests: the request log of the emulated service (GET /emulator/v1/requests), newest first, filterable; it can be emptied. */
import { del, get } from "../lib/api.js";
import { errorNotice, fill, h, shortId, table, time } from "../lib/dom.js";

export default {
  id: "requests",
  title: "Requests",
  /** @param {HTMLElement} root */
  mount(root) {
    const path = /** @type {HTMLInputElement} */ (h("input", { type: "search", placeholder: "path contains", oninput: () => void view.refresh() }));
    const status = /** @type {HTMLInputElement} */ (h("input", { type: "search", placeholder: "status (200, 4xx)", size: 12, oninput: () => void view.refresh() }));
    const out = h("div");
    const list = h("div", { class: "panel" });
    fill(
      root,
      h(
        "div",
        { class: "toolbar" },
        path,
        status,
        h("button", {
          type: "button",
          text: "Clear log",
          onclick: async () => {
            await del("/requests");
            void view.refresh();
          },
        }),
      ),
      out,
      list,
    );
    const view = {
      async refresh() {
        try {
          const r = await get("/requests", { path: path.value.trim(), status: status.value.trim(), limit: 300 });
          fill(out);
          fill(
            list,
            table(
              ["time", "method", "path", "status", "ms", "organization", "caller", "activity", "error"],
              r.requests
                .slice()
                .reverse()
                .map((/** @type {any} */ q) => [
                  h("span", { class: "mono", text: time(q.atMs) }),
                  q.method,
                  h("span", { class: "mono", text: q.path }),
                  h("span", { class: q.status >= 400 || q.status === 0 ? "error" : "", text: String(q.status) }),
                  String(q.latencyMs),
                  shortId(q.organizationId),
                  q.caller ? h("span", null, shortId(q.caller.userId), h("span", { class: "muted", text: ` ${q.caller.key ?? ""}` })) : "",
                  q.activityId ? h("a", { href: `#activities/${q.activityId}` }, shortId(q.activityId)) : "",
                  q.errorCode !== null ? `${q.errorCode}${q.turnkeyErrorCode ? ` ${q.turnkeyErrorCode}` : ""}` : "",
                ]),
              "no requests yet",
            ),
          );
        } catch (err) {
          fill(out, errorNotice(err));
        }
      },
    };
    return view;
  },
};
