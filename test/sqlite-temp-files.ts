/**
 * SQLite's temporary files held by this process (Linux): SQLite deletes each as it opens it, so
 * only the process's descriptors still reach them. `target` is what /proc/self/fd links to,
 * `read()` reads the file's bytes back.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export type SqliteTempFile = { target: string; read(): Buffer };

export function sqliteTempFiles(): SqliteTempFile[] {
  const out: SqliteTempFile[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile (the readdir's own descriptor)
    }
    if (target.includes("etilqs_") && target.endsWith(" (deleted)")) out.push({ target, read: () => readFileSync(`/proc/self/fd/${fd}`) });
  }
  return out;
}

/** The temporary files that appeared while `fn` ran. */
export function newSqliteTempFiles(fn: () => void): SqliteTempFile[] {
  const before = new Set(sqliteTempFiles().map((f) => f.target));
  fn();
  return sqliteTempFiles().filter((f) => !before.has(f.target));
}
