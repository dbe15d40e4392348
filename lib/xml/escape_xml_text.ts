import { escapeXmlChar } from "./_escape_char.ts";

// The `u` flag makes `\uD800-\uDFFF` match only lone surrogates: a valid pair is read as one
// astral code point and passes through untouched.
// deno-lint-ignore no-control-regex -- the control characters XML 1.0 forbids are what this finds
const NEEDS_ESCAPE = /[&<>\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF\x7F-\x9F\p{Cf}]/u;
// deno-lint-ignore no-control-regex -- as above
const ESCAPE_ALL = /[&<>\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF\x7F-\x9F\p{Cf}]/gu;

/**
 * Escapes a string for use as XML 1.0 character data (the text between tags).
 *
 * - `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`. Escaping `>` as well means `]]>` can
 *   never appear, so the output is safe anywhere text is allowed.
 * - `\r` becomes `&#13;`, because parsers turn CR and CRLF into LF; TAB and LF are kept as is.
 * - Invisible and bidirectional control characters (Unicode format characters, general category
 *   Cf, such as U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+200B ZERO WIDTH
 *   SPACE or U+FEFF, and DEL and the C1 controls) become hexadecimal character references
 *   (`&#x202E;`): a reader sees them, so quoted text cannot display as something it is not, and a
 *   parser still gets the same character back (the same set as `lib/redact/escape_invisible.ts`).
 * - Characters XML 1.0 forbids (C0 controls other than TAB, LF and CR; U+FFFE; U+FFFF; lone
 *   UTF-16 surrogates) are replaced with U+FFFD REPLACEMENT CHARACTER. They cannot be written
 *   even as character references, so this is the only lossy step. Valid surrogate pairs
 *   (emoji and other astral characters) are kept.
 *
 * Returns the input string itself when nothing needs escaping.
 *
 * @example
 * ```ts
 * import { escapeXmlText } from "./escape_xml_text.ts";
 * escapeXmlText("a < b && c ]]> d"); // "a &lt; b &amp;&amp; c ]]&gt; d"
 * escapeXmlText("plain"); // "plain" (the same string, no copy)
 * ```
 */
export function escapeXmlText(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(ESCAPE_ALL, escapeXmlChar);
}
