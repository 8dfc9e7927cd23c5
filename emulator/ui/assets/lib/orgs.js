/** The organization tree as a flat list, and a <select> over it shared by several tabs. */
import { h } from "./dom.js";

/**
 * Depth-first: every organization with its depth (sub-organizations under their parent).
 * @param {any[]} tree @returns {{ org: any, depth: number }[]}
 */
export function flatten(tree, depth = 0) {
  return tree.flatMap((o) => [{ org: o, depth }, ...flatten(o.subOrganizations ?? [], depth + 1)]);
}

/**
 * Fills `select` with the organizations (keeping `selected`, else the first) and returns the chosen id.
 * @param {HTMLSelectElement} select @param {any[]} tree @param {string | undefined} selected @param {{ any?: string }} [opts]
 */
export function fillOrgSelect(select, tree, selected, opts = {}) {
  const flat = flatten(tree);
  const options = flat.map(({ org, depth }) =>
    h("option", { value: org.organizationId, text: `${"\u00a0\u00a0".repeat(depth)}${org.organizationName}${org.deleted ? " (deleted)" : ""}` }),
  );
  select.replaceChildren(...(opts.any !== undefined ? [h("option", { value: "", text: opts.any })] : []), ...options);
  const ids = flat.map((f) => f.org.organizationId);
  const value = selected !== undefined && (ids.includes(selected) || (selected === "" && opts.any !== undefined)) ? selected : opts.any !== undefined ? "" : (ids[0] ?? "");
  select.value = value;
  return value;
}
