import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { escapeInvisible, hasInvisible } from "../../../lib/redact/escape_invisible.ts";
import { quoteLine } from "../../../lib/redact/quote_line.ts";
import { escapeXmlText } from "../../../lib/xml/escape_xml_text.ts";
import { escapeXmlAttr } from "../../../lib/xml/escape_xml_attr.ts";

/** The characters the task names: bidirectional controls, then zero-width and BOM. */
const BIDI = [
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u202E",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200E",
  "\u200F",
  "\u061C",
];
const ZERO_WIDTH = ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF"];

/** `\uXXXX` per UTF-16 unit, written independently of the helper. */
function jsonEscape(ch: string): string {
  return [...Array(ch.length).keys()].map((i) => `\\u${ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, "0")}`)
    .join("");
}

describe("escapeInvisible()", () => {
  test("escapeInvisible() writes each bidirectional and zero-width character as a visible \\uXXXX escape", () => {
    for (const ch of [...BIDI, ...ZERO_WIDTH]) {
      const out = escapeInvisible(`a${ch}b`);
      assert.equal(out, `a${jsonEscape(ch)}b`);
      assert.ok(!out.includes(ch));
    }
    assert.equal(escapeInvisible("invoice\u202Etxt.exe"), "invoice\\u202Etxt.exe");
  });

  test("escapeInvisible() escapes tag characters, the soft hyphen, DEL and the C1 controls", () => {
    assert.equal(escapeInvisible("x\u{E0041}\u{E007F}"), "x\\uDB40\\uDC41\\uDB40\\uDC7F");
    assert.equal(escapeInvisible("\u00AD\x7F\x80\x85\x9F"), "\\u00AD\\u007F\\u0080\\u0085\\u009F");
  });

  test("escapeInvisible() keeps visible text of every script, emoji, newlines and tabs, and returns it unchanged", () => {
    const text = "naïve café 中文 עברית العربية 😀 𝄞\n\tend";
    assert.equal(escapeInvisible(text), text);
    assert.equal(hasInvisible(text), false);
    assert.equal(hasInvisible("a\u2069"), true);
  });

  test("escapeInvisible() applied to JSON text keeps it valid JSON of the same string", () => {
    const value = 'say "hi" \u202Eevil\u2066\u200B \u{E0041} done';
    const text = escapeInvisible(JSON.stringify(value));
    assert.equal(JSON.parse(text), value);
    assert.ok(!hasInvisible(text));
  });

  test("the XML escapers and escapeInvisible() agree on every code point", () => {
    // The layers keep lib/xml from importing lib/redact, so the set is written twice; this is the
    // oracle that the two stay the same.
    const differ: string[] = [];
    for (let cp = 0x7f; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const ours = escapeInvisible(ch) !== ch;
      const xmlRef = `&#x${cp.toString(16).toUpperCase()};`;
      const text = escapeXmlText(ch) === xmlRef;
      const attr = escapeXmlAttr(ch) === xmlRef;
      if (ours !== text || ours !== attr) differ.push(`U+${cp.toString(16).toUpperCase()}`);
      if (differ.length > 10) break;
    }
    assert.deepEqual(differ, []);
  });
});

describe("quoteLine()", () => {
  test("quoteLine() shows invisible characters as escapes and keeps the visible text", () => {
    const out = quoteLine("fix \u202Elogin\u202C and \u2066x\u2069 with \u200Bzero", 200);
    assert.equal(out, '"fix \\u202Elogin\\u202C and \\u2066x\\u2069 with \\u200Bzero"');
    assert.equal(
      JSON.parse(out),
      "fix \u202Elogin\u202C and \u2066x\u2069 with \u200Bzero",
      "still the same JSON string",
    );
  });

  test("quoteLine() stays within max with the escapes counted, never cutting one in half", () => {
    for (let max = 2; max <= 60; max++) {
      const out = quoteLine("\u202E".repeat(40) + "tail", max);
      assert.ok(out.length <= max, `max ${max}: ${out}`);
      assert.ok(!hasInvisible(out));
      assert.doesNotThrow(() => JSON.parse(out), `max ${max}: ${out}`);
    }
  });
});
