import { redact } from "./redact.ts";

/** Marks the cut. */
const GAP = " […] ";
/** The head's share of what is kept: a pasted message states its purpose last as often as first. */
const HEAD_SHARE = 0.55;
/** Room kept past each end before redacting, so a secret across the cut is still recognised whole. */
const REDACT_SLACK = 16_384;

/**
 * `text` cut to at most `max` UTF-16 units by keeping its head and its tail around a `" […] "`
 * mark, never splitting a surrogate pair. Where a long message says what it wants (a pasted log
 * followed by "why does this fail?", or a request followed by a pasted spec), the end is as
 * likely as the start, so a cut keeps both. `redact: true` redacts each end first (with room
 * around the cut, so a secret that crosses it is still recognised whole). Text within `max` is
 * returned as it is (redacted when asked).
 *
 * @example
 * ```ts
 * import { cutMiddle } from "./cut_middle.ts";
 * cutMiddle("0123456789abcdefghij", 12); // "0123 […] hij"
 * cutMiddle("short", 12); // "short"
 * ```
 */
export function cutMiddle(text: string, max: number, options: { redact?: boolean } = {}): string {
  if (options.redact === true) {
    if (text.length > 2 * (max + REDACT_SLACK)) {
      const edge = max + REDACT_SLACK;
      return cutClean(redact(text.slice(0, edge)) + GAP + redact(text.slice(-edge)), max);
    }
    return cutClean(redact(text), max);
  }
  return cutClean(text, max);
}

function cutClean(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= GAP.length + 2) return text.slice(0, Math.max(0, max));
  const room = max - GAP.length;
  let head = Math.ceil(room * HEAD_SHARE);
  let tail = room - head;
  if (isHigh(text.charCodeAt(head - 1))) head--;
  if (isLow(text.charCodeAt(text.length - tail))) tail--;
  return text.slice(0, head).trimEnd() + GAP + text.slice(text.length - tail).trimStart();
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
