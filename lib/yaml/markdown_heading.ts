/** An ATX heading of Markdown: its level (the number of `#`) and its text. */
export interface MarkdownHeading {
  level: number;
  text: string;
}

/** Characters that end a line for a regular expression's `.`; a heading's text never holds one. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const SPACE = /\s/;

/**
 * The ATX heading `line` is (`## Phase 1 ##` → level 2, text `Phase 1`), or null: one to six `#`,
 * then whitespace, then the text without the whitespace and closing `#`s around it. What
 * `/^(#{1,6})\s+(.*?)\s*#*\s*$/` gives, without its scan: that expression went back over the
 * trailing whitespace from every character of the text, so a heading followed by a few thousand
 * spaces took minutes (issue #36, N3). Linear in the line's length.
 *
 * @example
 * ```ts
 * import { markdownHeading } from "./markdown_heading.ts";
 * markdownHeading("## Progress ##"); // { level: 2, text: "Progress" }
 * markdownHeading("#hashtag"); // null
 * ```
 */
export function markdownHeading(line: string): MarkdownHeading | null {
  let level = 0;
  while (level < line.length && line.charCodeAt(level) === 0x23 /* # */) level++;
  if (level === 0 || level > 6 || level === line.length || !SPACE.test(line[level])) return null;
  let end = line.length;
  while (end > level && SPACE.test(line[end - 1])) end--;
  while (end > level && line.charCodeAt(end - 1) === 0x23) end--;
  while (end > level && SPACE.test(line[end - 1])) end--;
  let start = level;
  while (start < end && SPACE.test(line[start])) start++;
  const text = line.slice(start, end);
  return LINE_BREAK.test(text) ? null : { level, text };
}
