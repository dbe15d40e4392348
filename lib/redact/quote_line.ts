/**
 * Free text from a transcript or a repository made safe to keep (redacted, then capped) and, for
 * the hooks' plain-text output, made one quoted line: data, never a sentence of ours.
 *
 * @module
 */
import { escapeInvisible } from "./escape_invisible.ts";
import { redact } from "./redact.ts";

/** What {@linkcode safeText} gives: the text, and whether it was cut. */
export interface SafeText {
  text: string;
  truncated: boolean;
}

/**
 * Room kept past the cap before redacting: a secret that starts before the cap is redacted whole
 * (every token format is far shorter than this; a PEM block cut here is still redacted, its rule
 * reaches to the end of the base64).
 */
const REDACT_SLACK = 16_384;

/** Marks a cut. */
const ELLIPSIS = "…";

/**
 * `text` redacted, then cut to at most `max` UTF-16 units (an ellipsis included). Redacting first
 * means a cut can never leave half of a secret that the redactor would no longer recognise.
 *
 * @example
 * ```ts
 * safeText("GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 and more", 40);
 * // { text: "GITHUB_TOKEN=[REDACTED:github-token] an…", truncated: true }
 * ```
 */
export function safeText(text: string, max: number): SafeText {
  const head = text.length > max + REDACT_SLACK ? text.slice(0, max + REDACT_SLACK) : text;
  const clean = redact(head);
  if (clean.length <= max && head.length === text.length) return { text: clean, truncated: false };
  if (clean.length <= max) return { text: clean, truncated: true };
  return { text: cutText(clean, max), truncated: true };
}

/**
 * `text` cut to at most `max` UTF-16 units ending in an ellipsis, never splitting a surrogate pair.
 *
 * @example
 * ```ts
 * cutText("abcdef", 4); // "abc…"
 * cutText("abc", 4); // "abc"
 * ```
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let end = max - ELLIPSIS.length;
  if (end <= 0) return ELLIPSIS.slice(0, max);
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end).trimEnd() + ELLIPSIS;
}

// Every run of whitespace, control characters and the Unicode line and paragraph separators.
// deno-lint-ignore no-control-regex
const BREAKS = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * `text` on one line: every run of whitespace or control characters becomes one space, trimmed.
 *
 * @example
 * ```ts
 * oneLine(" a\n\tb\u2028c "); // "a b c"
 * ```
 */
export function oneLine(text: string): string {
  return text.replace(BREAKS, " ").trim();
}

/**
 * `text` as one quoted line for plain-text output: redacted, on one line, JSON-quoted (so a quote
 * inside cannot end the quotation), invisible and bidirectional control characters written as
 * `\uXXXX` escapes ({@linkcode escapeInvisible}: still a JSON string of the same text, but one a
 * reader sees whole), at most `max` UTF-16 units with the quotes and escapes.
 *
 * @example
 * ```ts
 * quoteLine('say "hi"\nnow', 40); // "\"say \\\"hi\\\" now\""
 * quoteLine("abc\u202Edef", 40); // "\"abc\\u202Edef\"" (the text `"abc\u202Edef"`)
 * ```
 */
export function quoteLine(text: string, max: number): string {
  let inner = cutText(oneLine(safeText(text, max + 64).text), Math.max(0, max - 2));
  let quoted = escapeInvisible(JSON.stringify(inner));
  while (quoted.length > max && inner !== "") {
    inner = cutText(inner, Math.max(0, inner.length - (quoted.length - max)));
    quoted = escapeInvisible(JSON.stringify(inner));
  }
  return quoted;
}
