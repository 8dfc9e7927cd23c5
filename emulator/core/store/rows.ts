/**
 * Row mapping shared by every repository: SQLite columns are snake_case, records camelCase;
 * a few columns hold JSON or 0/1 booleans. One mapper per table says which, so that
 * reading a row and writing a record need no per-table field lists.
 */
import type { Db } from "./db.js";
import { prep } from "./statements.js";

// Name conversions run for every column of every row read or written: remembered, not recomputed.
const memo = (convert: (s: string) => string) => {
  const seen = new Map<string, string>();
  return (s: string) => {
    let out = seen.get(s);
    if (out === undefined) seen.set(s, (out = convert(s)));
    return out;
  };
};
const camel = memo((s) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
const snake = memo((s) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

export type RowMapper<R> = {
  /** A stored row as a record (undefined in, undefined out). */
  read(raw: unknown): R | undefined;
  readAll(raws: unknown[]): R[];
  /** `read` for a row known to exist (for `.map`). */
  one: (raw: unknown) => R;
  /** The record's fields as column -> stored value (undefined fields are left out). */
  write(record: Partial<R>): Record<string, unknown>;
};

export function rowMapper<R>(kinds: { json?: (keyof R & string)[]; bool?: (keyof R & string)[] } = {}): RowMapper<R> {
  const json = new Set<string>(kinds.json ?? []);
  const bool = new Set<string>(kinds.bool ?? []);
  const read = (raw: unknown): R | undefined => {
    if (!raw) return undefined;
    const out: Record<string, unknown> = {};
    const row = raw as Record<string, unknown>;
    for (const column in row) {
      const field = camel(column);
      const value = row[column];
      out[field] = json.has(field) ? (value === null ? null : JSON.parse(value as string)) : bool.has(field) ? value === 1 : value;
    }
    return out as R;
  };
  return {
    read,
    readAll: (raws) => raws.map((r) => read(r)!),
    one: (raw) => read(raw)!,
    write(record) {
      const out: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(record as Record<string, unknown>)) {
        if (value === undefined) continue;
        out[snake(field)] = json.has(field) ? (value === null ? null : JSON.stringify(value)) : bool.has(field) ? (value ? 1 : 0) : value;
      }
      return out;
    },
  };
}

const insertSqls = new Map<string, string>();
function insertSql(table: string, names: string[]): string {
  const key = `${table}(${names.join(",")})`;
  let sql = insertSqls.get(key);
  if (sql === undefined) insertSqls.set(key, (sql = `INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`));
  return sql;
}

/** INSERT of one record; returns the rowid (for AUTOINCREMENT tables). */
export function insertRow<R>(db: Db, table: string, mapper: RowMapper<R>, record: Partial<R>): number {
  const cols = mapper.write(record);
  const names = Object.keys(cols);
  const info = prep(db, insertSql(table, names)).run(...Object.values(cols));
  return Number(info.lastInsertRowid);
}

/** UPDATE of the given fields of the row whose key column (default `id`) holds `key`. */
export function updateRow<R>(db: Db, table: string, mapper: RowMapper<R>, key: string, patch: Partial<R>, keyColumn = "id"): void {
  updateWhere(db, table, mapper, { [keyColumn]: key }, patch);
}

/** UPDATE of the given fields of the rows whose columns hold all of `where`'s values. */
export function updateWhere<R>(db: Db, table: string, mapper: RowMapper<R>, where: Record<string, string | number>, patch: Partial<R>): void {
  const cols = mapper.write(patch);
  const names = Object.keys(cols);
  if (!names.length) return;
  const keys = Object.keys(where);
  prep(db, `UPDATE ${table} SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE ${keys.map((k) => `${k} = ?`).join(" AND ")}`).run(...Object.values(cols), ...Object.values(where));
}

/** How many rows of `table` each organization holds (by its org_id column); an organization without any is absent. */
export function countsByOrg(db: Db, table: string): Map<string, number> {
  const rows = prep(db, `SELECT org_id AS orgId, COUNT(*) AS n FROM ${table} GROUP BY org_id`).all() as { orgId: string; n: number }[];
  return new Map(rows.map((r) => [r.orgId, r.n]));
}
