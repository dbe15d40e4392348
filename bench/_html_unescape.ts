/**
 * A small port of Python's `html.unescape`, for the payload-quality bench: the scorer unescapes
 * the payload's task subjects, requests and paths, and the whole text a need is looked for in.
 * Same pattern and same numeric rules as Python's (the HTML5 rules: `&#0;` and surrogates give
 * U+FFFD, `&#x80;`–`&#x9F;` are read as Windows-1252, non-characters and most C0/C1 controls
 * vanish). Named references: the five of XML (what rehydrate's escaper writes) and the 106
 * "legacy" names HTML5 reads even without the `;` (`&amp`, `&lt`, `&copy`, `&para`, the Latin-1
 * letters...), since those are the ones that turn up by accident in commands and URLs
 * (`?a=1&para=2`). The other HTML5 names (`&hellip;`, `&rarr;`, about 2,100) are left as they
 * are, where Python decodes them.
 */

/** The HTML5 names of U+00A0..U+00FF, in code point order; HTML5 reads each with or without `;`. */
const LATIN1 = "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 " +
  "sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml " +
  "Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml " +
  "times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil " +
  "egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash " +
  "ugrave uacute ucirc uuml yacute thorn yuml";

/** The Windows-1252 reading HTML5 gives `&#x80;`..`&#x9F;` (U+0081, U+008D, U+008F, U+0090, U+009D stay). */
const CP1252 = "\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f" +
  "\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178";

let legacy: Map<string, string> | undefined;

/** Names read without `;` (built on first use). */
function legacyNames(): Map<string, string> {
  if (legacy) return legacy;
  legacy = new Map([
    ["amp", "&"],
    ["AMP", "&"],
    ["lt", "<"],
    ["LT", "<"],
    ["gt", ">"],
    ["GT", ">"],
    ["quot", '"'],
    ["QUOT", '"'],
    ["COPY", "\xa9"],
    ["REG", "\xae"],
  ]);
  LATIN1.split(" ").forEach((name, i) => legacy!.set(name, String.fromCodePoint(0xa0 + i)));
  return legacy;
}

/** Python's `_charref` pattern. */
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/g;

/** Code points HTML5 drops from a numeric reference (Python's `_invalid_codepoints`). */
function isDropped(n: number): boolean {
  return (n >= 0x1 && n <= 0x8) || n === 0xb || (n >= 0xe && n <= 0x1f) || (n >= 0x7f && n <= 0x9f) ||
    (n >= 0xfdd0 && n <= 0xfdef) || (n & 0xfffe) === 0xfffe;
}

/** One numeric reference, `#123` or `#x7B` with or without `;`, as Python's `_replace_charref` reads it. */
function numeric(ref: string): string {
  const digits = ref.replace(/;$/, "");
  const n = digits[1] === "x" || digits[1] === "X" ? parseInt(digits.slice(2), 16) : parseInt(digits.slice(1), 10);
  if (n === 0) return "\ufffd";
  if (n === 0x0d) return "\r";
  if (n >= 0x80 && n <= 0x9f) return CP1252[n - 0x80];
  if ((n >= 0xd800 && n <= 0xdfff) || n > 0x10ffff) return "\ufffd";
  if (isDropped(n)) return "";
  return String.fromCodePoint(n);
}

/** One named reference, with Python's longest-prefix rule for the names read without `;`. */
function named(ref: string): string {
  const names = legacyNames();
  if (ref === "apos;") return "'";
  const bare = ref.endsWith(";") ? ref.slice(0, -1) : ref;
  if (ref.endsWith(";") && names.has(bare)) return names.get(bare)!;
  if (!ref.endsWith(";") && names.has(ref)) return names.get(ref)!;
  for (let x = ref.length - 1; x > 1; x--) {
    const value = names.get(ref.slice(0, x));
    if (value !== undefined) return value + ref.slice(x);
  }
  return "&" + ref;
}

/**
 * Python's `html.unescape(s)` for numeric references, the XML entities and the legacy names (see
 * the module comment for what is left out).
 *
 * @example
 * ```ts
 * htmlUnescape("a &lt; b &amp;&amp; &#x41;&#66; &amp;lt;"); // "a < b && AB &lt;"
 * htmlUnescape("?q=1&para=2"); // "?q=1¶=2" (as Python's)
 * ```
 */
export function htmlUnescape(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(CHARREF, (_, ref: string) => ref[0] === "#" ? numeric(ref) : named(ref));
}
