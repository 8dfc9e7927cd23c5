/**
 * Snapshots: take, list, restore and delete in-memory snapshots of the whole state
 * (/emulator/v1/snapshots), download the state file (GET /emulator/v1/state), reset to the fixtures.
 */
import { del, get, post, url } from "../lib/api.js";
import { errorNotice, fill, h, runAction, table, time } from "../lib/dom.js";

export default {
  id: "snapshots",
  title: "Snapshots",
  /** @param {HTMLElement} root */
  mount(root) {
    const name = /** @type {HTMLInputElement} */ (h("input", { type: "text", placeholder: "name (optional)", name: "name" }));
    const out = h("div");
    const list = h("div", { class: "panel" });
    const act = (/** @type {() => Promise<unknown>} */ fn, /** @type {string} */ done) => runAction(out, fn, () => void view.refresh(), done);
    fill(
      root,
      h(
        "div",
        { class: "toolbar" },
        name,
        h("button", { class: "primary", type: "button", text: "Take snapshot", onclick: () => act(() => post("/snapshots", name.value.trim() ? { name: name.value.trim() } : {}), "snapshot taken") }),
        h("a", { href: url("/state"), download: "emulator-state.sqlite", text: "Download state file" }),
        h("button", { class: "danger", type: "button", text: "Reset to fixtures", onclick: () => confirm("Drop all state and restore the fixtures?") && act(() => post("/reset"), "reset to the fixtures") }),
      ),
      out,
      list,
    );
    const view = {
      async refresh() {
        try {
          const r = await get("/snapshots");
          fill(
            list,
            table(
              ["name", "taken", "size", ""],
              r.snapshots.map((/** @type {any} */ s) => [
                s.name,
                h("span", { class: "mono", text: time(s.createdAt) }),
                `${(s.sizeBytes / 1024).toFixed(0)} KiB`,
                h(
                  "span",
                  null,
                  h("button", { type: "button", text: "Restore", onclick: () => act(() => post(`/snapshots/${s.id}/restore`), `restored ${s.name}`) }),
                  " ",
                  h("button", { class: "danger", type: "button", text: "Delete", onclick: () => act(() => del(`/snapshots/${s.id}`), `deleted ${s.name}`) }),
                ),
              ]),
              "no snapshots",
            ),
          );
        } catch (err) {
          fill(list, errorNotice(err));
        }
      },
    };
    return view;
  },
};
