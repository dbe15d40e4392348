/**
 * Parsing a transcript line read as Latin-1 instead of UTF-8, for lines of which only a few
 * strings are kept (PreCompact's tool results: the content of one block and the file names).
 *
 * Decoded as UTF-8, a line with any non-ASCII byte becomes a 16-bit string twice its size, and
 * so does every string JSON.parse makes of it; read as Latin-1, each byte is one 8-bit character.
 * In a process that lives a few tens of milliseconds, fresh memory costs more than the parse
 * itself (every new page is a fault: docs/bench-notes.md), so this halves what a big result line
 * costs. The strings kept are then mended back to what the UTF-8 parse gives
 * ({@linkcode utf8OfLatin1}).
 *
 * Why the two parses agree (given `hasHighEscape` of `json_escapes.ts` is false, so every `\u`
 * escape gives an ASCII character):
 * - The structure is the same: JSON's syntax is ASCII, and a byte of 0x80 or more is a character
 *   that JSON allows only inside a string in both readings (a lone one outside fails both parses).
 * - A key or value equals an ASCII string (`"type"`, `"user"`, `"filenames"`) in one reading
 *   exactly when it does in the other: both then hold the same ASCII bytes, and a string holding
 *   any byte of 0x80 or more equals no ASCII string in either. So the lookup of an ASCII key finds
 *   the same occurrence (the last one) whatever other keys the object holds.
 * - A string's UTF-8 reading is the UTF-8 decoding of its Latin-1 characters as bytes: escapes
 *   give ASCII characters, and an ASCII byte ends any UTF-8 sequence, invalid ones included, so
 *   the decoder's replacements fall the same way whether the escapes are resolved before or after.
 */
import type { Buffer } from "node:buffer";
import type { TranscriptRow } from "./transcript_row.ts";

const NON_ASCII = /[\x80-\uffff]/;

let scratch: Buffer | undefined;

/**
 * The row of `line` (a JSON object), parsed from its Latin-1 reading: its ASCII keys and values
 * are as the UTF-8 parse gives them, every other string must go through
 * {@linkcode utf8OfLatin1} before use. Undefined when the line is not a JSON object. Only for a
 * line whose `hasHighEscape` (`json_escapes.ts`) is false: otherwise the two readings could
 * differ (parse it as UTF-8).
 *
 * @example
 * ```ts
 * const row = parseLatin1Row(Buffer.from('{"type":"user","text":"d\u00c3\u00a9j\u00c3\u00a0"}', "latin1"));
 * utf8OfLatin1(row!.text as string); // "déjà"
 * ```
 */
export function parseLatin1Row(line: Buffer): TranscriptRow | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString("latin1"));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return value as TranscriptRow;
}

/**
 * True when every character of `s` is ASCII: such a string reads the same as Latin-1 and UTF-8.
 *
 * @example
 * ```ts
 * isAscii("toolu_01A"); // true
 * isAscii("café"); // false
 * ```
 */
export function isAscii(s: string): boolean {
  return !NON_ASCII.test(s);
}

/**
 * A string of {@linkcode parseLatin1Row}'s row as the UTF-8 parse gives it: its characters taken
 * as bytes and decoded as UTF-8 (an invalid sequence becomes U+FFFD, as in the UTF-8 reading).
 * Pure ASCII comes back as it is.
 *
 * @example
 * ```ts
 * utf8OfLatin1("caf\u00c3\u00a9"); // "café"
 * ```
 */
export function utf8OfLatin1(s: string): string {
  if (isAscii(s)) return s;
  const n = s.length;
  if (scratch === undefined || scratch.length < n) {
    const buffers = (process.getBuiltinModule("node:buffer") as { Buffer: typeof Buffer }).Buffer;
    scratch = buffers.allocUnsafe(Math.max(n, scratch === undefined ? 4096 : 2 * scratch.length));
  }
  const written = scratch.write(s, 0, n, "latin1");
  return scratch.toString("utf8", 0, written);
}
