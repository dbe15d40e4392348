/**
 * Python's text semantics, for the payload-quality bench (bench/payload-quality.ts), whose figures
 * must be the ones a Python scorer computes from the same payload. JavaScript differs from
 * Python's `str` and `re` in small ways that change a substring test or a count: `\s` (Python's
 * has U+001C–U+001F and U+0085, not U+FEFF), `\w` and `\b` (Unicode in Python, ASCII in
 * JavaScript), `str.strip()`, `len()` and slices (code points, not UTF-16 units), truthiness
 * (`[]` and `{}` are false in Python) and `format(x, ".2f")` (ties round to even). Pure functions,
 * no runtime APIs, so the unit tests run them under Bun and Deno.
 */

/** The characters of Python's `str.isspace()`, which `\s` and `str.strip()` use, as a class body. */
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/**
 * Python's `\s` for `str` patterns, as a `RegExp` source (use it with the `u` flag).
 *
 * @example
 * ```ts
 * new RegExp(`^${PY_SPACE}+$`, "u").test("\x1c\x85"); // true (JavaScript's \s says false)
 * ```
 */
export const PY_SPACE = `[${SPACE}]`;

/**
 * Python's `\w` for `str` patterns (letters, numbers, `_`; not combining marks), as a `RegExp`
 * source (use it with the `u` flag).
 *
 * @example
 * ```ts
 * new RegExp(`^${PY_WORD}+$`, "u").test("café_2"); // true
 * ```
 */
export const PY_WORD = "[\\p{L}\\p{N}_]";

/**
 * Python's `\b` before a word (JavaScript's `\b` only knows ASCII letters), as a `RegExp` source.
 *
 * @example
 * ```ts
 * new RegExp(`${PY_WORD_START}test`, "u").test("étest"); // false
 * ```
 */
export const PY_WORD_START = `(?<!${PY_WORD})`;

/**
 * Python's `\b` after a word, as a `RegExp` source.
 *
 * @example
 * ```ts
 * new RegExp(`test${PY_WORD_END}`, "u").test("testé"); // false
 * ```
 */
export const PY_WORD_END = `(?!${PY_WORD})`;

const LEADING_SPACE = new RegExp(`^${PY_SPACE}+`, "u");
const TRAILING_SPACE = new RegExp(`${PY_SPACE}+$`, "u");
const SPACE_RUN = new RegExp(`${PY_SPACE}+`, "gu");
const WORD_RUN = new RegExp(`${PY_WORD}+`, "gu");

/**
 * Python's `s.strip()`: Python's whitespace off both ends (U+FEFF stays, unlike `String.trim`).
 *
 * @example
 * ```ts
 * pyStrip("\x1c a \ufeff"); // "a \ufeff"
 * ```
 */
export function pyStrip(s: string): string {
  return s.replace(LEADING_SPACE, "").replace(TRAILING_SPACE, "");
}

/**
 * Python's `s.lstrip()`.
 *
 * @example
 * ```ts
 * pyLstrip("\n  {x}"); // "{x}"
 * ```
 */
export function pyLstrip(s: string): string {
  return s.replace(LEADING_SPACE, "");
}

/**
 * Lower case, runs of whitespace made one space, stripped: the scorer's `norm`, the form every
 * substring test compares.
 *
 * @example
 * ```ts
 * normText("  Run\tthe  TESTS\n"); // "run the tests"
 * ```
 */
export function normText(s: string): string {
  return pyStrip(s.toLowerCase().replace(SPACE_RUN, " "));
}

/**
 * Python's `re.findall(r"\w+", s)`.
 *
 * @example
 * ```ts
 * wordRuns("a-b c_d é1"); // ["a", "b", "c_d", "é1"]
 * ```
 */
export function wordRuns(s: string): string[] {
  return s.match(WORD_RUN) ?? [];
}

/**
 * Python's `len(s)`: code points, so an emoji counts 1 (a lone surrogate counts 1 too, as a
 * `\ud800` escape decodes to one code point in Python).
 *
 * @example
 * ```ts
 * cpLength("a😀"); // 2
 * ```
 */
export function cpLength(s: string): number {
  // The string iterator steps by code point (a lone surrogate is one step, as in Python).
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Python's `s[:n]`: the first `n` code points.
 *
 * @example
 * ```ts
 * cpSlice("😀😀😀", 2); // "😀😀"
 * ```
 */
export function cpSlice(s: string, n: number): string {
  if (s.length <= n) return s;
  let out = "";
  let k = 0;
  for (const ch of s) {
    if (k++ >= n) break;
    out += ch;
  }
  return out;
}

/**
 * Python's truthiness of a JSON value: `null`, `false`, `0`, `""`, `[]` and `{}` are false.
 *
 * @example
 * ```ts
 * pyTruthy([]); // false
 * pyTruthy("0"); // true
 * ```
 */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

/**
 * Python's `os.path.basename` (POSIX): what follows the last `/`, so `"a/"` gives `""`.
 *
 * @example
 * ```ts
 * pyBasename("/x/plan.md"); // "plan.md"
 * ```
 */
export function pyBasename(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

/**
 * Python's `format(x, ".2f")` (or `digits` places): like `toFixed`, except that an exact tie
 * rounds to even (`0.125` gives `"0.12"`, where `toFixed` gives `"0.13"`).
 *
 * @example
 * ```ts
 * pyFixed(1 / 8); // "0.12"
 * pyFixed(3 / 8); // "0.38"
 * ```
 */
export function pyFixed(x: number, digits = 2): string {
  // A tie is a double exactly halfway between two results: x = odd / 2^(digits + 1) (the
  // factor 5^digits of the halfway value's denominator cannot be represented, so it must
  // cancel). Scaling by a power of two is exact, so this test is too; x * 10^digits is not.
  const m = x * 2 ** (digits + 1);
  if (Number.isInteger(m) && m % 2 !== 0 && Math.abs(m) < 2 ** 40) {
    const k = (m * 5 ** digits - 1) / 2;
    const even = k % 2 === 0 ? k : k + 1;
    return (even / 10 ** digits).toFixed(digits);
  }
  return x.toFixed(digits);
}

/**
 * Python's `format(s, "<width")`: `s` padded with spaces to `width` code points.
 *
 * @example
 * ```ts
 * padRight("ab", 4); // "ab  "
 * ```
 */
export function padRight(s: string, width: number): string {
  return s + " ".repeat(Math.max(0, width - cpLength(s)));
}

/**
 * Python's `format(n, "width")` for an integer: right-aligned.
 *
 * @example
 * ```ts
 * padLeft(7, 3); // "  7"
 * ```
 */
export function padLeft(n: number, width: number): string {
  return String(n).padStart(width, " ");
}
