/**
 * `${...}` references in scenario values:
 *
 *   ${uuid} ${now} ${randomName} ${randomEmail} ${randomPhone}   generated per occurrence
 *   ${keys.NAME.publicKey}                                       a fresh P-256 key made per run (compressed hex)
 *   ${keys.NAME.publicKeyUncompressed}                           the same key uncompressed (04…), for export/import targets
 *   ${keys.NAME.privateKey}                                      its private key: in invariant args only, never sent
 *   ${vars.NAME} ${captures.NAME} ${captures.NAME.path[0]}       scenario values and captures
 *   ${org.id} ${org.rootUserId} ${org.rootUserName} ${org.name}  the organization the scenario runs in
 *   ${response.path}                                             the current step's response (expectations only)
 *
 * A string that is exactly one reference takes the referenced value as is (array, object,
 * number); references inside a longer string are spliced in as text.
 */
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { getPath } from "./json-path.js";
import { uncompressedPublicKey, type KeyRing } from "./keys.js";

export type ScopeOrg = { id: string; name: string; rootUserId: string; rootUserName: string };

export type InterpolationContext = {
  vars: Record<string, unknown>;
  captures: Record<string, unknown>;
  keys: KeyRing;
  org: ScopeOrg;
  response?: unknown;
  emailDomain: string;
  /** Set only while interpolating invariant args: allows ${keys.NAME.privateKey}. */
  secrets?: boolean;
};

export class InterpolationError extends Error {}

const REF = /\$\{([^}]*)\}/g;
const WHOLE = /^\$\{([^}]*)\}$/;

export const GENERATORS: Record<string, (ctx: InterpolationContext) => string> = {
  uuid: () => randomUUID(),
  now: () => String(Date.now()),
  randomName: () => `conformance-${randomBytes(4).toString("hex")}`,
  randomEmail: (ctx) => `conformance+${randomBytes(4).toString("hex")}@${ctx.emailDomain}`,
  // +1 415 555 01xx: the range reserved for fiction.
  randomPhone: () => `+141555501${String(randomInt(100)).padStart(2, "0")}`,
};

/** The namespaces a reference may start with (besides the generators). */
export const NAMESPACES = ["keys", "vars", "captures", "org", "response"] as const;

export function resolveReference(ref: string, ctx: InterpolationContext): unknown {
  const expr = ref.trim();
  const gen = GENERATORS[expr];
  if (gen) return gen(ctx);
  const dot = expr.search(/[.[]/);
  const ns = dot < 0 ? expr : expr.slice(0, dot);
  const rest = dot < 0 ? "" : expr.slice(expr[dot] === "." ? dot + 1 : dot);
  switch (ns) {
    case "keys": {
      const m = /^([A-Za-z0-9_-]+)\.(publicKey|publicKeyUncompressed|privateKey)$/.exec(rest);
      if (!m) throw new InterpolationError(`\${${expr}}: use \${keys.NAME.publicKey}, \${keys.NAME.publicKeyUncompressed} or (in invariants) \${keys.NAME.privateKey}`);
      const pair = ctx.keys.get(m[1]!);
      if (m[2] === "publicKeyUncompressed") return uncompressedPublicKey(pair);
      if (m[2] === "privateKey") {
        if (!ctx.secrets) throw new InterpolationError(`\${${expr}}: private keys are only available in invariant args`);
        return pair.privateKey;
      }
      return pair.publicKey;
    }
    case "vars":
    case "captures": {
      const bag = ns === "vars" ? ctx.vars : ctx.captures;
      const name = /^[A-Za-z0-9_-]+/.exec(rest)?.[0];
      if (!name) throw new InterpolationError(`\${${expr}}: name missing`);
      if (!(name in bag)) throw new InterpolationError(`\${${expr}}: no ${ns === "vars" ? "variable" : "capture"} named "${name}"`);
      const tail = rest.slice(name.length).replace(/^\./, "");
      const v = tail ? getPath(bag[name], tail) : bag[name];
      if (v === undefined) throw new InterpolationError(`\${${expr}}: nothing at "${tail}"`);
      return v;
    }
    case "org": {
      if (!(rest in ctx.org)) throw new InterpolationError(`\${${expr}}: org has ${Object.keys(ctx.org).join(", ")}`);
      return ctx.org[rest as keyof ScopeOrg];
    }
    case "response":
      if (ctx.response === undefined) throw new InterpolationError(`\${${expr}}: no response here`);
      return rest ? getPath(ctx.response, rest) : ctx.response;
    default:
      throw new InterpolationError(`\${${expr}}: unknown reference (use ${[...Object.keys(GENERATORS), ...NAMESPACES.map((n) => n + ".…")].join(", ")})`);
  }
}

export function interpolateString(s: string, ctx: InterpolationContext): unknown {
  const whole = WHOLE.exec(s);
  if (whole) return resolveReference(whole[1]!, ctx);
  return s.replace(REF, (_m, ref: string) => {
    const v = resolveReference(ref, ctx);
    return typeof v === "string" ? v : JSON.stringify(v);
  });
}

/** Deep copy of `value` with every string interpolated (object keys too). */
export function interpolate(value: unknown, ctx: InterpolationContext): unknown {
  if (typeof value === "string") return interpolateString(value, ctx);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, ctx));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [String(interpolateString(k, ctx)), interpolate(v, ctx)]));
  }
  return value;
}

/** Every `${...}` reference in a value, for load-time checks. */
export function references(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") for (const m of value.matchAll(REF)) out.push(m[1]!.trim());
  else if (Array.isArray(value)) value.forEach((v) => references(v, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) {
    references(k, out);
    references(v, out);
  }
  return out;
}
