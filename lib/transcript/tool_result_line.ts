/**
 * Recognises, from the raw bytes of a transcript line and without parsing it, a row whose only
 * possible effect on `collectEvidence` is to record tool results: the `tool_use_id`s it may
 * answer. PreCompact's scan then keeps such a line unparsed and parses it only when the matching
 * call turns out to need its result (most results are of `Read`/`Edit`/`Write` and never do).
 *
 * What the bytes prove, for a line that is valid JSON (an invalid line has no effect, and the
 * deferred parse finds that out later):
 *
 * - No escape `\u004X`…`\u007X` anywhere, so a string equal to `message` or `compact_boundary`
 *   can only be written as those exact bytes (the other escapes decode to no letter or `_`).
 * - `"message"` occurs once and no `"compact_boundary"` occurs: the object has at most one
 *   `message` key at any depth, and no `system`/`compact_boundary` row can come of it.
 * - That `message` key holds exactly `{"role":"user","content":[B, …]}` where each block B is
 *   `{"tool_use_id":"<id>","type":"tool_result","content":C}` with an optional `"is_error"`
 *   boolean and C a string or an array of `{"type":"text","text":"…"}` blocks. Each string is
 *   followed to its closing quote (a quote after an even run of backslashes), so nothing inside
 *   one is mistaken for structure, and every key of the object is seen (no duplicate can hide).
 *
 * So whatever the rest of the line holds (any key order, `toolUseResult`, `isSidechain`, a
 * nested `"type":"text"`), the row's `message.content` is those blocks: as a `user` row it only
 * records their results; of any other type, or off the main chain, it does nothing at all. Its
 * `cwd` and `sessionId` still matter for the first main-chain row, so callers only defer once
 * those are known. The one `message` key may also be nested (then the row has no message and no
 * effect). Anything else (another shape, an escape, a cut line) returns undefined: parse it.
 */
import type { Buffer } from "node:buffer";
import { needle } from "./lines.ts";
import { hasLetterEscape } from "./json_escapes.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MESSAGE_KEY = needle('"message"');
const BOUNDARY = needle('"compact_boundary"');
/** The message up to the first block's content value; the id is plain ASCII, never escaped. */
const HEAD =
  /^"message":\{"role":"user","content":\[\{"tool_use_id":"([\w-]{1,200})","type":"tool_result","content":([["])/;
/** A further block, up to its content value. */
const NEXT = /^\{"tool_use_id":"([\w-]{1,200})","type":"tool_result","content":([["])/;
/** After a block's content: the optional flag, the block's end, then `,` (another) or `]}` (the end). */
const TAIL = /^(?:,"is_error":(?:true|false))?\}(,|\]\})/;
const TEXT_BLOCK = '{"type":"text","text":"';
/** How much of the line a header or tail regex looks at (ids are about 30 characters). */
const WINDOW = 320;

/**
 * The `tool_use_id`s of a line that can only record tool results (see the module comment), in
 * block order, or undefined when the bytes do not prove it. The line has no `\n` and no final
 * `\r` (as `reverseLines` gives it).
 */
export function toolResultLineIds(line: Buffer): string[] | undefined {
  const m = line.indexOf(MESSAGE_KEY);
  if (m <= 0) return undefined;
  const before = line[m - 1];
  if (before !== 0x2c && before !== 0x7b) return undefined; // `,` or `{`: the quote opens a key
  let head = HEAD.exec(line.toString("latin1", m, Math.min(line.length, m + WINDOW)));
  if (head === null) return undefined;
  let pos = m + head[0].length;
  const ids: string[] = [];
  for (;;) {
    ids.push(head[1]);
    pos = head[2] === '"' ? stringEnd(line, pos) : textBlocksEnd(line, pos);
    if (pos === -1) return undefined;
    const tail = TAIL.exec(line.toString("latin1", pos, Math.min(line.length, pos + WINDOW)));
    if (tail === null) return undefined;
    pos += tail[0].length;
    if (tail[1] !== ",") break;
    head = NEXT.exec(line.toString("latin1", pos, Math.min(line.length, pos + WINDOW)));
    if (head === null) return undefined;
    pos += head[0].length;
  }
  if (line.indexOf(MESSAGE_KEY, m + MESSAGE_KEY.length) !== -1) return undefined;
  if (line.indexOf(BOUNDARY) !== -1) return undefined;
  if (hasLetterEscape(line)) return undefined;
  return ids;
}

/** Index just past the string whose opening quote is at `open - 1`, or -1 when it never closes. */
function stringEnd(line: Buffer, open: number): number {
  for (let q = line.indexOf(QUOTE, open); q !== -1; q = line.indexOf(QUOTE, q + 1)) {
    let b = q - 1;
    while (b >= open && line[b] === BACKSLASH) b--;
    if (((q - 1 - b) & 1) === 0) return q + 1;
  }
  return -1;
}

/** Index just past `[{"type":"text","text":"…"}, …]` whose `[` is at `open - 1`, or -1. */
function textBlocksEnd(line: Buffer, open: number): number {
  let pos = open;
  for (;;) {
    if (line.toString("latin1", pos, pos + TEXT_BLOCK.length) !== TEXT_BLOCK) return -1;
    pos = stringEnd(line, pos + TEXT_BLOCK.length);
    if (pos === -1 || line[pos] !== 0x7d) return -1; // `}`
    const next = line[pos + 1];
    if (next === 0x5d) return pos + 2; // `]`
    if (next !== 0x2c) return -1; // `,`
    pos += 2;
  }
}
