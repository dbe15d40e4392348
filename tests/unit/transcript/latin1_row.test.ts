// Reading a line as Latin-1 and mending its strings must give what the UTF-8 parse gives
// (lib/transcript/latin1_row.ts): checked against Buffer's own UTF-8 decoding and JSON.parse.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { parseLatin1Row, utf8OfLatin1 } from "../../../lib/transcript/latin1_row.ts";
import { hasHighEscape } from "../../../lib/transcript/json_escapes.ts";
import { createRandom } from "../_transcript_gen.ts";

/** Random bytes, biased to the ones UTF-8 cares about. */
function randomBytes(rnd: () => number, n: number): Buffer {
  const pool = [
    0x41,
    0x20,
    0x5c,
    0x22,
    0x7f,
    0x80,
    0xbf,
    0xc2,
    0xc3,
    0xa9,
    0xe2,
    0x82,
    0xac,
    0xed,
    0xa0,
    0xf0,
    0x9f,
    0xff,
  ];
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = rnd() < 0.5 ? pool[Math.floor(rnd() * pool.length)] : Math.floor(rnd() * 256);
  return out;
}

describe("latin1_row", () => {
  test("utf8OfLatin1() of bytes read as Latin-1 is their UTF-8 decoding, invalid sequences included", () => {
    const rnd = createRandom(4242);
    for (let k = 0; k < 3000; k++) {
      const bytes = randomBytes(rnd, Math.floor(rnd() * 40));
      assert.equal(utf8OfLatin1(bytes.toString("latin1")), bytes.toString("utf8"), bytes.toString("hex"));
    }
    // Longer than the first scratch buffer, then shorter again.
    const long = Buffer.from("é".repeat(10_000) + "x");
    assert.equal(utf8OfLatin1(long.toString("latin1")), long.toString("utf8"));
    assert.equal(utf8OfLatin1("caf\u00c3\u00a9"), "café");
    const ascii = "plain ASCII";
    assert.equal(utf8OfLatin1(ascii), ascii);
  });

  test("hasHighEscape() is true for every \\u escape that does not give ASCII", () => {
    const cases: [string, boolean][] = [
      ['{"a":"\\u00e9"}', true],
      ['{"a":"\\u0080"}', true],
      ['{"a":"\\u20ac"}', true],
      ['{"a":"\\ud83d\\ude80"}', true],
      ['{"a":"\\u001b[31m"}', false],
      ['{"a":"\\u007f"}', false],
      ['{"a":"\\u0041"}', false],
      ['{"a":"\\\\u00e9"}', true], // an escaped backslash: read as UTF-8 to be safe
      ['{"a":"\\u00"}', true], // cut short
      ['{"a":"\\u"}', true],
      ['{"a":"caf\u00e9"}', false],
      ["", false],
    ];
    for (const [line, want] of cases) assert.equal(hasHighEscape(Buffer.from(line)), want, line);
  });

  test("parseLatin1Row() then utf8OfLatin1() gives JSON.parse's strings for lines without high escapes", () => {
    const rnd = createRandom(777);
    let compared = 0;
    for (let k = 0; k < 2000; k++) {
      // A row whose values are raw byte strings, some invalid JSON (a control byte, a byte outside a string).
      const value = Buffer.concat([Buffer.from('{"type":"user","v":"'), randomBytes(rnd, 12), Buffer.from('"}')]);
      const line = rnd() < 0.1 ? Buffer.concat([value.subarray(0, -1), Buffer.from([0xc3, 0x7d])]) : value;
      let want: unknown;
      try {
        want = JSON.parse(line.toString("utf8"));
      } catch {
        want = undefined;
      }
      if (hasHighEscape(line)) continue;
      const row = parseLatin1Row(line) as { type?: unknown; v?: unknown } | undefined;
      if (want === undefined) {
        assert.equal(row, undefined, line.toString("hex"));
        continue;
      }
      assert.ok(row !== undefined, line.toString("hex"));
      assert.equal(row.type, "user");
      assert.equal(utf8OfLatin1(row.v as string), (want as { v: string }).v, line.toString("hex"));
      compared++;
    }
    assert.ok(compared > 300, `only ${compared} rows compared`);
    assert.equal(parseLatin1Row(Buffer.from("[1]")), undefined);
    assert.equal(parseLatin1Row(Buffer.from("null")), undefined);
  });
});
