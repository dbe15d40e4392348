/**
 * Private helper of `lib/xml/escape_xml_text.ts` and `lib/xml/escape_xml_attr.ts`: the replacement for one
 * character matched by their escape regexes.
 *
 * Markup characters become predefined entities, the three whitespace characters that XML
 * parsers normalise (CR always, TAB and LF inside attribute values) become character
 * references, and everything else that reaches this function is a character XML 1.0 does not
 * allow at all (C0 controls, U+FFFE, U+FFFF, a lone surrogate), which becomes U+FFFD.
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
      return "\uFFFD";
  }
}
