/**
 * The fidelity ledger (docs/fidelity.md) lists every decision the docs mark
 * `UNCONFIRMED(<id>)`, and only those, each linked to the section that holds it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DOCS = join(import.meta.dirname, "..", "..", "docs");
const LEDGER = "fidelity.md";
const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

type Marker = { file: string; line: number; id: string | undefined; section: string | undefined };
type Row = { id: string; file: string; anchor: string };

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every `UNCONFIRMED` in a document, with its id (undefined: none given) and the heading above it. */
function markersOf(file: string, text: string): Marker[] {
  const found: Marker[] = [];
  let section: string | undefined;
  text.split("\n").forEach((line, i) => {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) section = anchorOf(heading[1]!);
    for (const m of line.matchAll(/UNCONFIRMED(?:\(([^)]*)\))?/g)) found.push({ file, line: i + 1, id: m[1], section });
  });
  return found;
}

/** The ledger's rows: `| \`id\` | ... | [text](file#anchor) |`. */
function rowsOf(text: string): Row[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .map((l) => {
      const m = /^\| `([^`]+)` \|.*\| \[[^\]]*\]\(([^)#]+)#([^)]+)\) \|$/.exec(l);
      if (!m) throw new Error(`docs/${LEDGER}: a row must end with a link to file#section: ${l}`);
      return { id: m[1]!, file: m[2]!, anchor: m[3]! };
    });
}

const docs = readdirSync(DOCS).filter((f) => f.endsWith(".md") && f !== LEDGER);
const markers = docs.flatMap((f) => markersOf(f, readFileSync(join(DOCS, f), "utf8")));
const rows = rowsOf(readFileSync(join(DOCS, LEDGER), "utf8"));
const where = (m: Marker) => `docs/${m.file}:${m.line}`;

describe("docs/fidelity.md", () => {
  it("every UNCONFIRMED marker in docs/ carries an id", () => {
    expect(markers.length).toBeGreaterThan(0);
    expect(markers.filter((m) => !m.id || !ID.test(m.id)).map(where)).toEqual([]);
  });

  it("lists every marked decision, once", () => {
    const listed = rows.map((r) => r.id);
    expect(listed.filter((id, i) => listed.indexOf(id) !== i)).toEqual([]);
    expect(markers.filter((m) => !listed.includes(m.id!)).map((m) => `${where(m)} UNCONFIRMED(${m.id}) is missing from docs/${LEDGER}`)).toEqual([]);
  });

  it("lists nothing that no document marks, and links each row to the section that holds it", () => {
    for (const r of rows) {
      const at = markers.filter((m) => m.id === r.id);
      expect(at.map((m) => m.file), `docs/${LEDGER}: no document marks UNCONFIRMED(${r.id})`).not.toEqual([]);
      expect(
        at.some((m) => m.file === r.file && m.section === r.anchor),
        `docs/${LEDGER}: ${r.id} links ${r.file}#${r.anchor}, but it is marked at ${at.map((m) => `${m.file}#${m.section}`).join(", ")}`,
      ).toBe(true);
    }
  });

  it("catches a marker missing from the ledger (the check itself)", () => {
    const extra = markersOf("x.md", "# A\nsomething UNCONFIRMED(brand-new) here, and a bare UNCONFIRMED\n");
    expect(extra.map((m) => [m.id, m.section])).toEqual([
      ["brand-new", "a"],
      [undefined, "a"],
    ]);
    expect(rows.map((r) => r.id)).not.toContain("brand-new");
  });
});
