/**
 * Scalar helpers for {@link parseYaml}: YAML 1.2 core-schema resolution of plain scalars, map-key
 * stringification and double-quoted escapes. Kept identical to the `yaml` package's defaults so the
 * differential tests can compare values with `deepStrictEqual`.
 *
 * @module
 */

// Compiled once at module load; resolvePlain() only reaches them after a cheap first-char filter.
const NULL_RE = /^(?:~|[Nn]ull|NULL)$/;
const BOOL_RE = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT_RE = /^0o[0-7]+$/;
const INT_RE = /^[-+]?[0-9]+$/;
const INT_HEX_RE = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Resolves a plain scalar with the YAML 1.2 core schema, exactly as `yaml` does by default. */
export function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // Most scalars start with a letter no core-schema value starts with: kept small and cheap, as
  // this runs for every plain scalar and key (the rest is in resolveSpecial).
  if (
    c >= 97 && c <= 122 ? c !== 110 && c !== 116 && c !== 102 : c >= 65 && c <= 90 && c !== 78 && c !== 84 && c !== 70
  ) {
    return s;
  }
  if ((c >= 48 && c <= 57) || c === 45) {
    // The usual numbers: decimal integers and floats.
    if (INT_RE.test(s)) return parseInt(s, 10);
    if (FLOAT_RE.test(s)) return parseFloat(s);
  }
  return resolveSpecial(s, c);
}

/** resolvePlain() for the remaining scalars that may not stay strings. */
function resolveSpecial(s: string, c: number): unknown {
  if (s.length === 0) return null;
  // Each regex is tried only for the first characters it can match (they never overlap).
  if (c >= 48 && c <= 57) {
    // A digit: decimal, 0o, 0x integer or float.
    if (INT_RE.test(s)) return parseInt(s, 10);
    if (c === 48 && s.length > 2) {
      const c1 = s.charCodeAt(1);
      if (c1 === 111 && INT_OCT_RE.test(s)) return parseInt(s.substring(2), 8);
      if (c1 === 120 && INT_HEX_RE.test(s)) return parseInt(s.substring(2), 16);
    }
    if (FLOAT_RE.test(s) || FLOAT_EXP_RE.test(s)) return parseFloat(s);
    return s;
  }
  if (c === 43 || c === 45 || c === 46) {
    // `+`, `-` or `.`: signed integer, float, infinity or NaN.
    if (c !== 46 && INT_RE.test(s)) return parseInt(s, 10);
    if (FLOAT_NAN_RE.test(s)) {
      if (s.slice(-3).toLowerCase() === "nan") return NaN;
      return c === 45 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    }
    if (FLOAT_RE.test(s) || FLOAT_EXP_RE.test(s)) return parseFloat(s);
    return s;
  }
  if (c === 126 || c === 110 || c === 78) {
    // `~`, `n`, `N`: null.
    return (s.length === 1 || s.length === 4) && NULL_RE.test(s) ? null : s;
  }
  if (c === 116 || c === 84 || c === 102 || c === 70) {
    // `t`, `T`, `f`, `F`: booleans.
    if ((s.length === 4 || s.length === 5) && BOOL_RE.test(s)) return c === 116 || c === 84;
  }
  return s;
}

/** Turns a resolved plain key into the property name `yaml` would use on a plain object. */
export function plainKeyToString(s: string): string {
  const v = resolvePlain(s);
  if (v === null) return "";
  return typeof v === "string" ? v : String(v);
}

/** Single-character escapes of double-quoted scalars (YAML 1.2 §5.7). */
export const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  "a": "\x07",
  "b": "\b",
  "t": "\t",
  "\t": "\t",
  "n": "\n",
  "v": "\v",
  "f": "\f",
  "r": "\r",
  "e": "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  "N": "\u0085",
  "_": "\u00a0",
  "L": "\u2028",
  "P": "\u2029",
};

/** Reads `len` hex digits at `at`; returns -1 when any is missing or not hex. */
export function readHex(src: string, at: number, len: number): number {
  if (at + len > src.length) return -1;
  let n = 0;
  for (let i = at; i < at + len; i++) {
    const c = src.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 102) d = c - 87;
    else if (c >= 65 && c <= 70) d = c - 55;
    else return -1;
    n = n * 16 + d;
  }
  return n;
}
