import { escapeXmlChar } from "./_escape_char.ts";

// `u` flag: `\uD800-\uDFFF` then matches lone surrogates only, never half of a valid pair.
// deno-lint-ignore no-control-regex -- the control characters XML 1.0 forbids are what this finds
const NEEDS_ESCAPE = /[&<>"'\t\n\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF\x7F-\x9F\p{Cf}]/u;
// deno-lint-ignore no-control-regex -- as above
const ESCAPE_ALL = /[&<>"'\t\n\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF\x7F-\x9F\p{Cf}]/gu;

/**
 * Escapes a string for use as an XML 1.0 attribute value, quoted with either `"` or `'`.
 *
 * - `&`, `<`, `>`, `"` and `'` become `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&apos;`.
 * - TAB, LF and CR become `&#9;`, `&#10;` and `&#13;`: attribute-value normalisation turns
 *   literal whitespace characters into spaces, but keeps character references, so the value
 *   round-trips exactly.
 * - Invisible and bidirectional control characters (Unicode format characters, general category
 *   Cf, such as U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+200B ZERO WIDTH
 *   SPACE or U+FEFF, and DEL and the C1 controls) become hexadecimal character references
 *   (`&#x202E;`): a reader sees them, so quoted text cannot display as something it is not, and a
 *   parser still gets the same character back (the same set as `lib/redact/escape_invisible.ts`).
 * - Characters XML 1.0 forbids (C0 controls other than TAB, LF and CR; U+FFFE; U+FFFF; lone
 *   UTF-16 surrogates) are replaced with U+FFFD REPLACEMENT CHARACTER. Valid surrogate pairs
 *   are kept.
 *
 * Returns the input string itself when nothing needs escaping.
 *
 * @example
 * ```ts
 * import { escapeXmlAttr } from "./escape_xml_attr.ts";
 * escapeXmlAttr('say "hi"\n'); // "say &quot;hi&quot;&#10;"
 * ```
 */
export function escapeXmlAttr(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(ESCAPE_ALL, escapeXmlChar);
}
