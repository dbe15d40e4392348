/**
 * The `\u` escapes a raw JSON line holds: the one way its bytes can spell what they do not show.
 * For the readers that prove things from a line's bytes without parsing it (`toolResultLineIds`,
 * `isInertLine`, PreCompact's Latin-1 reading of kept result lines).
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import { containsAny, needle } from "./lines.ts";

const ESCAPE = needle("\\u");
const ZERO = 0x30;

/**
 * True when `line` holds an escape `\u0040`…`\u007f`: one that may spell a letter or `_`, so that
 * a key or value the bytes do not show (`"mess\u0061ge"`) may be there.
 *
 * @example
 * ```ts
 * hasLetterEscape(Buffer.from('{"mess\\u0061ge":1}')); // true
 * hasLetterEscape(Buffer.from('{"a":"\\u001b[31m"}')); // false
 * ```
 */
export function hasLetterEscape(line: Buffer): boolean {
  for (let e = line.indexOf(ESCAPE); e !== -1; e = line.indexOf(ESCAPE, e + 2)) {
    const d = line[e + 4];
    if (line[e + 2] === ZERO && line[e + 3] === ZERO && d >= 0x34 && d <= 0x37) return true;
  }
  return false;
}

/**
 * True when `line` holds a `\u` escape that does not give an ASCII character (`\u0080` and
 * above, or something that is not an escape at all, such as an escaped backslash before a `u`:
 * the caller then parses as UTF-8, which is always right).
 *
 * @example
 * ```ts
 * hasHighEscape(Buffer.from('{"a":"\\u00e9"}')); // true
 * hasHighEscape(Buffer.from('{"a":"\\u001b[31m"}')); // false
 * ```
 */
export function hasHighEscape(line: Buffer): boolean {
  for (let e = line.indexOf(ESCAPE); e !== -1; e = line.indexOf(ESCAPE, e + 2)) {
    const d = line[e + 4];
    if (line[e + 2] !== ZERO || line[e + 3] !== ZERO || !(d >= ZERO && d <= 0x37)) return true;
  }
  return false;
}

/**
 * True when `line` spells none of `needles` (each a key or a value with its quotes, or a word no
 * JSON string holds unescaped): none is in its bytes, and no escape may spell one
 * ({@linkcode hasLetterEscape}). Inside a JSON string a quote is escaped, so a needle's quotes in
 * the bytes are a key's or a value's. `isInertLine` and the evidence's thinking-only rows rest on it.
 *
 * @example
 * ```ts
 * spellsNone(Buffer.from('{"type":"progress"}'), [needle('"message"')]); // true
 * spellsNone(Buffer.from('{"mess\\u0061ge":1}'), [needle('"message"')]); // false
 * ```
 */
export function spellsNone(line: Buffer, needles: readonly Buffer[]): boolean {
  return !containsAny(line, needles) && !hasLetterEscape(line);
}
