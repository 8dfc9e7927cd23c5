/**
 * DOM helpers for the emulator UI: elements are built with `h()` (text is always set as text,
 * never parsed as HTML), plus the small widgets every tab uses.
 */

/**
 * Creates an element. Props: `class`, `text`, `on<Event>` handlers, `dataset`, and any other
 * attribute or property; children are nodes, strings, arrays of them, or null/false (skipped).
 * @param {string} tag
 * @param {Record<string, unknown> | null} [props]
 * @param {...unknown} children
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = String(v);
    else if (k === "text") el.textContent = String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), /** @type {EventListener} */ (v));
    else if (k in el && typeof v !== "string") /** @type {any} */ (el)[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

/** @param {Node} el @param {unknown[]} children */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. @param {Element} el @param {...unknown} children */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A monospace value with a copy button. @param {string | null | undefined} value @param {string} [cls] */
export function copyable(value, cls = "mono") {
  if (value === null || value === undefined || value === "") return h("span", { class: "muted", text: "—" });
  return h("span", { class: cls }, value, copyButton(String(value)));
}

/** A long id shown short (whole in the tooltip) with a button copying all of it. @param {string | null | undefined} id */
export function idCopy(id) {
  if (!id) return h("span", { class: "muted", text: "—" });
  return h("span", { class: "nowrap" }, shortId(id), copyButton(id));
}

/** @param {string} value */
export function copyButton(value) {
  return h("button", {
    class: "copy",
    type: "button",
    title: "copy",
    text: "copy",
    onclick: async (/** @type {Event} */ e) => {
      e.stopPropagation();
      const btn = /** @type {HTMLButtonElement} */ (e.currentTarget);
      try {
        await navigator.clipboard.writeText(value);
        btn.textContent = "copied";
      } catch {
        // Clipboard access needs a secure context or permission: fall back to selecting the text.
        const range = document.createRange();
        range.selectNodeContents(/** @type {Node} */ (btn.previousSibling ?? btn));
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
        btn.textContent = "selected";
      }
      setTimeout(() => (btn.textContent = "copy"), 1200);
    },
  });
}

/** A status or outcome badge; the prefix is dropped for display. @param {string} value */
export function badge(value, kind = "s") {
  const short = String(value).replace(/^(ACTIVITY_STATUS_|OUTCOME_)/, "");
  const cls = kind === "s" ? `s-${short}` : `o-${value}`;
  return h("span", { class: `badge ${cls}`, title: value, text: short });
}

/** ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2 -> SIGN_RAW_PAYLOAD_V2. @param {string} t */
export const shortType = (t) => String(t).replace(/^ACTIVITY_TYPE_/, "");

/** The first 8 characters of an id, the whole in the tooltip. @param {string | null | undefined} id */
export function shortId(id) {
  if (!id) return h("span", { class: "muted", text: "—" });
  return h("span", { class: "id", title: id, text: id.length > 12 ? `${id.slice(0, 8)}…` : id });
}

/** A wire timestamp ({seconds, nanos}), ISO string or ms as local time. @param {unknown} t */
export function time(t) {
  let ms;
  if (typeof t === "number") ms = t;
  else if (typeof t === "string") ms = Date.parse(t);
  else if (t && typeof t === "object" && "seconds" in t) ms = Number(/** @type {any} */ (t).seconds) * 1000 + Math.floor(Number(/** @type {any} */ (t).nanos ?? 0) / 1e6);
  if (ms === undefined || Number.isNaN(ms)) return "";
  const d = new Date(ms);
  const pad = (/** @type {number} */ n, w = 2) => String(n).padStart(w, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Pretty JSON in a <pre>. @param {unknown} value */
export function json(value) {
  return h("pre", { text: JSON.stringify(value, null, 2) });
}

/** A definition list of [label, value] pairs (null values skipped). @param {[string, unknown][]} pairs */
export function kv(pairs) {
  return h("dl", { class: "kv" }, pairs.filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [h("dt", { text: k }), h("dd", null, v)]));
}

/** A table: headers and rows of cells. @param {string[]} headers @param {unknown[][]} rows @param {string} [empty] */
export function table(headers, rows, empty = "nothing yet") {
  if (!rows.length) return h("div", { class: "empty", text: empty });
  return h("table", null, h("thead", null, h("tr", null, headers.map((x) => h("th", { text: x })))), h("tbody", null, rows.map((r) => (r instanceof HTMLElement ? r : h("tr", null, r.map((c) => h("td", null, c)))))));
}

/** An error notice from an ApiError or anything thrown. @param {unknown} err */
export function errorNotice(err) {
  const e = /** @type {any} */ (err);
  const field = e?.field ? ` (field ${e.field})` : "";
  return h("div", { class: "notice bad", role: "alert", text: `${e?.message ?? String(err)}${field}` });
}

/**
 * Runs what a button asked for: on success shows `done` as a notice in `out` (or clears it) and calls
 * `after`; on failure shows the error in `out`.
 * @param {Element} out @param {() => Promise<unknown>} fn @param {() => unknown} after @param {string} [done]
 */
export async function runAction(out, fn, after, done) {
  try {
    await fn();
    fill(out, done ? h("div", { class: "notice ok", text: done }) : null);
    after();
  } catch (err) {
    fill(out, errorNotice(err));
  }
}
