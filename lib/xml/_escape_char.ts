// What XML 1.0 cannot carry even as a character reference; with the `u` flag a surrogate range
// matches only a lone surrogate.
// deno-lint-ignore no-control-regex -- the control characters XML 1.0 forbids are what this finds
const FORBIDDEN = /^[\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]$/u;

/**
 * Private helper of `lib/xml/escape_xml_text.ts` and `lib/xml/escape_xml_attr.ts`: the replacement for one
 * character matched by their escape regexes.
 *
 * Markup characters become predefined entities, the three whitespace characters that XML
 * parsers normalise (CR always, TAB and LF inside attribute values) become character
 * references, invisible and bidirectional control characters (Unicode format characters,
 * general category Cf, and DEL and the C1 controls) become hexadecimal character references
 * such as `&#x202E;`, which a reader sees and a parser turns back into the character, and
 * everything else that reaches this function is a character XML 1.0 does not allow at all
 * (C0 controls, U+FFFE, U+FFFF, a lone surrogate), which becomes U+FFFD.
 */
export function escapeXmlChar(ch: string): string {
  switch (ch) {
    case "&":
      return "&amp;";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case '"':
      return "&quot;";
    case "'":
      return "&apos;";
    case "\t":
      return "&#9;";
    case "\n":
      return "&#10;";
    case "\r":
      return "&#13;";
    default:
      return FORBIDDEN.test(ch) ? "\uFFFD" : `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`;
  }
}
