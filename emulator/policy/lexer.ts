/**
 * Tokenizer for the policy expression language.
 * Positions are 0-based character offsets into the source text.
 */
import { syntaxError, type SourceLabel } from "./syntax-error.js";

export type TokenKind = "ident" | "int" | "string" | "op" | "eof";

export interface Token {
  kind: TokenKind;
  /** Identifier name, operator text, string contents or the integer's digits. */
  text: string;
  pos: number;
  /** Parsed value of an integer literal. */
  int?: bigint;
}

/** Longest operators first so that `<=` wins over `<` and `..` over `.`. */
const OPERATORS = ["&&", "||", "==", "!=", "<=", ">=", "..", "<", ">", "!", "(", ")", "[", "]", ",", ".", "-"];

const ESCAPES: Record<string, string> = { "\\": "\\", "'": "'", '"': '"', n: "\n", t: "\t", r: "\r" };

const isDigit = (c: string) => c >= "0" && c <= "9";
const isIdentStart = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
const isIdentPart = (c: string) => isIdentStart(c) || isDigit(c);

/** Largest integer the language holds (u256). */
export const MAX_INT = (1n << 256n) - 1n;

/**
 * Strings take single quotes only: the policy language reference says "only single quotes are
 * supported" (tkhq/docs features/policies/language.mdx:91). `readDoubleQuotes` reads the
 * other kind too, for expressions stored before that was enforced.
 */
export function tokenize(src: string, label: SourceLabel, readDoubleQuotes = false): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    const start = i;
    if (isIdentStart(c)) {
      while (i < src.length && isIdentPart(src[i]!)) i++;
      tokens.push({ kind: "ident", text: src.slice(start, i), pos: start });
      continue;
    }
    if (isDigit(c)) {
      while (i < src.length && isDigit(src[i]!)) i++;
      if (i < src.length && isIdentStart(src[i]!)) throw syntaxError(label, "malformed number", start);
      const text = src.slice(start, i);
      const value = BigInt(text);
      if (value > MAX_INT) throw syntaxError(label, "integer literal out of range", start);
      tokens.push({ kind: "int", text, pos: start, int: value });
      continue;
    }
    if (c === '"' && !readDoubleQuotes) throw syntaxError(label, "double-quoted string: only single quotes are supported ('...')", i);
    if (c === "'" || c === '"') {
      i++;
      let out = "";
      for (;;) {
        if (i >= src.length) throw syntaxError(label, "unterminated string literal", start);
        const ch = src[i]!;
        if (ch === c) {
          i++;
          break;
        }
        if (ch === "\\") {
          const next = src[i + 1];
          const mapped = next === undefined ? undefined : ESCAPES[next];
          if (mapped === undefined) throw syntaxError(label, "invalid escape sequence", i);
          out += mapped;
          i += 2;
          continue;
        }
        out += ch;
        i++;
      }
      tokens.push({ kind: "string", text: out, pos: start });
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op === undefined) throw syntaxError(label, `unexpected character '${c}'`, start);
    tokens.push({ kind: "op", text: op, pos: start });
    i += op.length;
  }
  tokens.push({ kind: "eof", text: "", pos: src.length });
  return tokens;
}
