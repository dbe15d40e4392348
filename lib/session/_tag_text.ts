/**
 * Private helper of `lib/session/user_requests.ts`: the text inside a tag the client writes into a
 * slash command's row (`<command-name>`, `<command-args>`), found with two bounded `indexOf` calls.
 *
 * A lazy expression between two literals (`/<command-args>([\s\S]*?)<\/command-args>/`) scans to
 * the end of the text from every opening it meets: a row of many unclosed openings cost PreCompact
 * seconds of CPU (issue #36, N3). Here the text is cut first, then searched once: the work is
 * bounded by the cut, whatever the row holds.
 *
 * @module
 */

/** The client writes the command's tags first in its row: an opening later than this is not one of them. */
const OPENING_WITHIN = 4096;

/**
 * The text between the first `<tag>` among the first 4,096 characters of `text` and the next
 * `</tag>`, when that closing comes within `maxChars` characters of the opening; else undefined.
 * Linear in `maxChars`, not in the length of `text`.
 *
 * @example
 * ```ts
 * import { tagText } from "./_tag_text.ts";
 * tagText("<command-name>/review</command-name><command-args>123</command-args>", "command-args", 65536); // "123"
 * tagText("<command-args>never closed", "command-args", 65536); // undefined
 * ```
 */
export function tagText(text: string, tag: string, maxChars: number): string | undefined {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const head = text.length > OPENING_WITHIN + open.length ? text.slice(0, OPENING_WITHIN + open.length) : text;
  const at = head.indexOf(open);
  if (at < 0) return undefined;
  const from = at + open.length;
  const window = text.slice(from, from + maxChars + close.length);
  const end = window.indexOf(close);
  return end < 0 ? undefined : window.slice(0, end);
}
