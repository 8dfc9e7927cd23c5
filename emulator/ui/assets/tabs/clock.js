/** Clock: the emulated time (GET /emulator/v1/clock), set to an instant or advanced (POST /emulator/v1/clock). */
import { get, post } from "../lib/api.js";
import { errorNotice, fill, h, kv, runAction } from "../lib/dom.js";

const STEPS = /** @type {[string, number][]} */ ([
  ["+1 min", 60_000],
  ["+15 min", 900_000],
  ["+1 h", 3_600_000],
  ["+1 day", 86_400_000],
  ["+30 days", 30 * 86_400_000],
]);

export default {
  id: "clock",
  title: "Clock",
  /** @param {HTMLElement} root */
  mount(root) {
    const now = h("div");
    const out = h("div");
    const at = /** @type {HTMLInputElement} */ (h("input", { type: "text", placeholder: "ISO 8601, e.g. 2030-01-01T00:00:00Z", size: 34, name: "set" }));
    const move = (/** @type {Record<string, unknown>} */ body) => runAction(out, () => post("/clock", body), () => void view.refresh());
    fill(
      root,
      h(
        "div",
        { class: "panel" },
        now,
        h("h3", { text: "Advance" }),
        h("div", { class: "toolbar" }, STEPS.map(([label, ms]) => h("button", { type: "button", text: label, onclick: () => move({ advanceMs: ms }) }))),
        h("h3", { text: "Set" }),
        h("div", { class: "toolbar" }, at, h("button", { type: "button", text: "Set", onclick: () => move({ set: at.value.trim() }) }), h("button", { type: "button", text: "Back to host time", onclick: () => move({ set: Date.now() }) })),
        h("p", { class: "muted", text: "OTPs, sessions, API-key expirations, tokens and policy time conditions read this clock; SDK requests stay live after an advance." }),
        out,
      ),
    );
    const view = {
      async refresh() {
        try {
          const c = await get("/clock");
          fill(now, kv([["emulated time", h("span", { class: "mono", text: c.iso })], ["offset from host", `${c.offsetMs} ms`]]));
        } catch (err) {
          fill(now, errorNotice(err));
        }
      },
    };
    return view;
  },
};
