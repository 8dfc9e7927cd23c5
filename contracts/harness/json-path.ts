/**
 * The small path language scenario files use to point into a JSON response:
 *
 *   activity.result.createUsersResult.userIds[0]
 *   users[userId=3f2a...].userName      first element whose `userId` equals the value
 *   apiKeys[credential.publicKey=02..]  the key may be a dotted path
 *   users[*].userId                     the rest of the path over every element (an array)
 *   $result.userIds                     activity.result.<resultKey of the step's operation>
 *   $intent.users[0].userName           activity.intent.<intentKey of the step's operation>
 */

export type PathToken = { key: string } | { index: number } | { filter: { key: string; value: string } } | { all: true };

export class PathSyntaxError extends Error {}

export function parsePath(path: string): PathToken[] {
  const tokens: PathToken[] = [];
  let i = 0;
  const n = path.length;
  while (i < n) {
    const c = path[i]!;
    if (c === ".") {
      if (i === 0 || i === n - 1 || path[i + 1] === "." || path[i + 1] === "[") throw new PathSyntaxError(`bad path "${path}": misplaced "." at ${i}`);
      i++;
      continue;
    }
    if (c === "[") {
      const end = path.indexOf("]", i);
      if (end < 0) throw new PathSyntaxError(`bad path "${path}": unclosed "["`);
      const inner = path.slice(i + 1, end);
      if (inner === "*") tokens.push({ all: true });
      else if (/^\d+$/.test(inner)) tokens.push({ index: Number(inner) });
      else if (/^[^=\]]+=.*$/.test(inner)) {
        const eq = inner.indexOf("=");
        tokens.push({ filter: { key: inner.slice(0, eq), value: inner.slice(eq + 1) } });
      } else throw new PathSyntaxError(`bad path "${path}": "[${inner}]" is neither an index, [*] nor [key=value]`);
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < n && path[j] !== "." && path[j] !== "[") j++;
    tokens.push({ key: path.slice(i, j) });
    i = j;
  }
  if (!tokens.length) throw new PathSyntaxError("empty path");
  return tokens;
}

/** Reads `path` from `value`; undefined when any step is missing. */
export function getPath(value: unknown, path: string | PathToken[]): unknown {
  const tokens = typeof path === "string" ? parsePath(path) : path;
  return walk(value, tokens, 0);
}

function walk(value: unknown, tokens: PathToken[], at: number): unknown {
  if (at === tokens.length) return value;
  const t = tokens[at]!;
  if ("key" in t) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    return walk((value as Record<string, unknown>)[t.key], tokens, at + 1);
  }
  if (!Array.isArray(value)) return undefined;
  if ("index" in t) return walk(value[t.index], tokens, at + 1);
  if ("all" in t) return value.map((v) => walk(v, tokens, at + 1));
  // The filter key may itself be a dotted path: credentials[credential.publicKey=02ab…].
  const keyOf = (v: object): unknown => (t.filter.key.includes(".") ? getPath(v, t.filter.key) : (v as Record<string, unknown>)[t.filter.key]);
  const found = value.find((v) => v && typeof v === "object" && String(keyOf(v)) === t.filter.value);
  return walk(found, tokens, at + 1);
}

/** Expands the `$result` / `$intent` shorthands for an operation's member names. */
export function expandShorthand(path: string, names: { resultKey?: string; intentKey?: string }): string {
  const m = /^\$(result|intent)(?=$|[.[])/.exec(path);
  if (!m) return path;
  const key = m[1] === "result" ? names.resultKey : names.intentKey;
  if (!key) throw new PathSyntaxError(`"${path}": $${m[1]} needs a submit step (the operation has no ${m[1]} member)`);
  return `activity.${m[1]}.${key}${path.slice(m[0].length)}`;
}

/** A path for humans: `a.b[0].c`. */
export function formatPath(parts: (string | number)[]): string {
  return parts.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("") || "(root)";
}
