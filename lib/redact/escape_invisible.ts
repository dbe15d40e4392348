/**
 * Invisible and bidirectional control characters in untrusted text, made visible: quoted text from
 * a transcript or a repository must read as what it is, so a U+202E RIGHT-TO-LEFT OVERRIDE cannot
 * make a quotation display differently from its characters (a "Trojan Source" spoof) and a
 * zero-width or tag character cannot carry text a reader does not see.
 *
 * `lib/xml/escape_xml_text.ts` and `lib/xml/escape_xml_attr.ts` match the same characters (the
 * layers keep them from importing this file) and write them as character references instead;
 * tests/unit/redact/escape_invisible.test.ts checks the two sets agree on every code point.
 *
 * @module
 */

// Every format character (general category Cf: the bidirectional embeddings, overrides, isolates
// and marks, U+061C, the zero-width space, non-joiner and joiner, U+2060, U+FEFF, the tag
// characters U+E0000–U+E007F, the soft hyphen) and DEL and the C1 controls, which render as
// nothing. C0 controls are not here: newlines and tabs are text, and the callers that need one
// line already turn the rest into spaces.
const INVISIBLE = /[\p{Cf}\u007F-\u009F]/u;
const INVISIBLE_ALL = /[\p{Cf}\u007F-\u009F]/gu;

/**
 * True when `text` holds a character {@linkcode escapeInvisible} would escape.
 *
 * @example
 * ```ts
 * hasInvisible("abc\u202Edef"); // true
 * hasInvisible("naïve café"); // false
 * ```
 */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * `text` with every invisible or bidirectional control character (Unicode format characters,
 * general category Cf, plus DEL and the C1 controls) written as the six visible characters
 * `\uXXXX` (upper-case hex, one escape per UTF-16 unit, so a tag character becomes a surrogate
 * pair of escapes). The escape is JSON string syntax, so applying this to `JSON.stringify` output
 * keeps it valid JSON that decodes to the same string; in plain text it reads as the code point.
 * Everything else, emoji and other scripts included, is kept. Returns the input itself when there
 * is nothing to escape.
 *
 * @example
 * ```ts
 * escapeInvisible("invoice\u202Etxt.exe"); // "invoice\\u202Etxt.exe" (the text `invoice\u202Etxt.exe`)
 * escapeInvisible("a\u200Bb"); // "a\\u200Bb"
 * escapeInvisible("plain"); // "plain" (the same string, no copy)
 * ```
 */
export function escapeInvisible(text: string): string {
  if (!INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE_ALL, escapeOne);
}

function escapeOne(ch: string): string {
  let out = "";
  for (let i = 0; i < ch.length; i++) out += "\\u" + ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, "0");
  return out;
}
