import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { scanTranscript, type ScanTranscriptStats } from "../../../lib/transcript/scan_transcript.ts";
import { createRandom, generateTranscriptText, type TranscriptMess } from "../_transcript_gen.ts";
import { forwardParse, type ForwardRow } from "../_forward_parse.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures");
const HERE_FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures", "transcripts");

type OracleRow = ForwardRow;

/** The naive reference (tests/unit/_forward_parse.ts) of a file. */
function oracle(path: string): OracleRow[] {
  return forwardParse(readFileSync(path));
}

function withTempDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "scan-transcript-"));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeTemp(dir: string, name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function scanAll(path: string, options: Parameters<typeof scanTranscript>[1] = {}): unknown[] {
  return [...scanTranscript(path, options)];
}

function newestFirst(rows: OracleRow[]): object[] {
  return rows.map((r) => r.value).reverse();
}

const CHUNKS = [1, 2, 3, 7, 64, 1000, 65_536];

function randomMess(rnd: () => number): TranscriptMess {
  return {
    bom: rnd() < 0.4,
    crlfRate: rnd() < 0.4 ? rnd() : 0,
    blankRate: rnd() < 0.5 ? rnd() * 0.3 : 0,
    invalidRate: rnd() < 0.5 ? rnd() * 0.3 : 0,
    lastLine: (["newline", "none", "half"] as const)[Math.floor(rnd() * 3)],
  };
}

describe("scanTranscript()", () => {
  test("scanTranscript() yields the rows of a naive forward parse in reverse on seeded generated files", () => {
    withTempDir((dir) => {
      for (let seed = 1; seed <= 40; seed++) {
        const rnd = createRandom(seed * 7919);
        const mess = randomMess(rnd);
        const text = generateTranscriptText({
          seed,
          turns: 1 + Math.floor(rnd() * 4),
          toolResultBytes: Math.floor(rnd() * 300),
          compactEvery: rnd() < 0.5 ? 2 : 0,
          mess,
        });
        const path = writeTemp(dir, `gen-${seed}.jsonl`, text);
        const expected = newestFirst(oracle(path));
        assert.ok(expected.length > 0, `seed ${seed}: generator produced rows`);
        // One-byte reads are slow; they run on the smaller files only.
        const chunks = text.length < 8000 ? CHUNKS : CHUNKS.slice(3);
        for (const chunkBytes of chunks) {
          assert.deepEqual(
            scanAll(path, { chunkBytes }),
            expected,
            `seed ${seed}, chunkBytes ${chunkBytes}, mess ${JSON.stringify(mess)}`,
          );
        }
      }
    });
  });

  test("scanTranscript() with a budget yields exactly the rows whose line starts inside the window", () => {
    withTempDir((dir) => {
      for (let seed = 1; seed <= 40; seed++) {
        const rnd = createRandom(seed * 104_729);
        const text = generateTranscriptText({ seed, turns: 2, toolResultBytes: 200, mess: randomMess(rnd) });
        const path = writeTemp(dir, `budget-${seed}.jsonl`, text);
        const size = statSync(path).size;
        const rows = oracle(path);
        for (let k = 0; k < 6; k++) {
          const budgetBytes = 1 + Math.floor(rnd() * (size + 50));
          const chunkBytes = CHUNKS[2 + Math.floor(rnd() * (CHUNKS.length - 2))];
          const windowStart = size - budgetBytes;
          // The guarantee: a line is yielded iff the `\n` before it was read (or it starts the
          // file and the whole file was read).
          const inside = rows.filter((r) => r.start === 0 ? size <= budgetBytes : r.start - 1 >= windowStart);
          const stats: ScanTranscriptStats = { bytesRead: -1, reachedStart: false, skippedLines: -1 };
          const got = scanAll(path, { budgetBytes, chunkBytes, stats });
          const label = `seed ${seed}, budget ${budgetBytes}, chunk ${chunkBytes}, size ${size}`;
          assert.deepEqual(got, newestFirst(inside), label);
          assert.deepEqual(got, newestFirst(rows).slice(0, got.length), `${label}: a newest-first prefix`);
          assert.equal(stats.bytesRead, Math.min(budgetBytes, size), label);
          assert.equal(stats.reachedStart, budgetBytes >= size, label);
        }
      }
    });
  });

  test("scanTranscript() never reads more than the budget even inside a line longer than it", () => {
    withTempDir((dir) => {
      const huge = JSON.stringify({ type: "user", message: { content: "x".repeat(100_000) } });
      const path = writeTemp(dir, "huge.jsonl", `{"type":"a"}\n${huge}\n`);
      const stats: ScanTranscriptStats = { bytesRead: 0, reachedStart: false, skippedLines: 0 };
      assert.deepEqual(scanAll(path, { budgetBytes: 50_000, chunkBytes: 4096, stats }), []);
      assert.equal(stats.bytesRead, 50_000);
      assert.equal(stats.reachedStart, false);
      assert.deepEqual(scanAll(path, { budgetBytes: 200_000, chunkBytes: 4096 }), [JSON.parse(huge), { type: "a" }]);
    });
  });

  test("scanTranscript() with contains parses only lines holding one of the strings", () => {
    withTempDir((dir) => {
      for (let seed = 1; seed <= 10; seed++) {
        const path = writeTemp(
          dir,
          `pre-${seed}.jsonl`,
          generateTranscriptText({ seed, turns: 4, mess: { invalidRate: 0.2 } }),
        );
        const needles = ['"assistant"', '"compact_boundary"'];
        const expected = oracle(path)
          .filter((r) => needles.some((n) => r.raw.includes(Buffer.from(n))))
          .map((r) => r.value)
          .reverse();
        assert.deepEqual(scanAll(path, { contains: needles, chunkBytes: 500 }), expected, `seed ${seed}`);
      }
    });
  });

  test("scanTranscript() yields a complete last line without a final newline", () => {
    withTempDir((dir) => {
      const path = writeTemp(dir, "nofinal.jsonl", '{"a":1}\n{"b":"日本🚀"}');
      for (const chunkBytes of CHUNKS) assert.deepEqual(scanAll(path, { chunkBytes }), [{ b: "日本🚀" }, { a: 1 }]);
    });
  });

  test("scanTranscript() skips a half-written last line", () => {
    withTempDir((dir) => {
      const path = writeTemp(dir, "half.jsonl", '{"a":1}\n{"b":2}\n{"type":"assistant","mess');
      for (const chunkBytes of CHUNKS) assert.deepEqual(scanAll(path, { chunkBytes }), [{ b: 2 }, { a: 1 }]);
    });
  });

  test("scanTranscript() drops a BOM and CRLF endings and skips blank, invalid and non-object lines", () => {
    withTempDir((dir) => {
      const path = writeTemp(
        dir,
        "messy.jsonl",
        '\uFEFF{"first":true}\r\n\r\n   \n[1,2]\n42\nnull\n"s"\nnot json\n{"last":"é"}\r\n',
      );
      const stats: ScanTranscriptStats = { bytesRead: 0, reachedStart: false, skippedLines: 0 };
      for (const chunkBytes of CHUNKS) {
        assert.deepEqual(scanAll(path, { chunkBytes, stats }), [{ last: "é" }, { first: true }]);
        assert.equal(stats.skippedLines, 6); // "   ", [1,2], 42, null, "s", not json
        assert.equal(stats.reachedStart, true);
      }
    });
  });

  test("scanTranscript() reassembles a multi-byte character split across every chunk boundary", () => {
    withTempDir((dir) => {
      const text = "🚀日本語𝄞é";
      for (let pad = 0; pad < 8; pad++) {
        const path = writeTemp(
          dir,
          `mb-${pad}.jsonl`,
          `{"p":"${"x".repeat(pad)}","t":"${text}"}\n{"t":"${text}${text}"}\n`,
        );
        for (const chunkBytes of [1, 2, 3, 5, 7, 11]) {
          assert.deepEqual(
            scanAll(path, { chunkBytes }),
            [{ t: text + text }, { p: "x".repeat(pad), t: text }],
            `pad ${pad}, chunk ${chunkBytes}`,
          );
        }
      }
    });
  });

  test("scanTranscript() yields nothing for an empty file, blank lines, garbage or a lone BOM", () => {
    withTempDir((dir) => {
      for (
        const [name, content] of [["empty", ""], ["blank", "\n\n\r\n"], ["garbage", 'oops\n{]\n[1]\n{"a":\n'], [
          "bom",
          "\uFEFF",
        ]]
      ) {
        const path = writeTemp(dir, `${name}.jsonl`, content);
        for (const chunkBytes of CHUNKS) assert.deepEqual(scanAll(path, { chunkBytes }), [], name);
      }
    });
  });

  test("scanTranscript() yields nothing and does not throw for a missing file, an empty path or a directory", () => {
    assert.deepEqual(scanAll(join(tmpdir(), "no-such-dir-🚀", "x.jsonl")), []);
    assert.deepEqual(scanAll(""), []);
    assert.deepEqual(scanAll(tmpdir()), []);
  });

  test("scanTranscript() reads edge-case fixture files like the oracle does", () => {
    const files = readdirSync(HERE_FIXTURES).filter((f) => f.endsWith(".jsonl"));
    assert.ok(files.length > 0);
    for (const f of files) {
      const path = join(HERE_FIXTURES, f);
      for (const chunkBytes of CHUNKS) {
        assert.deepEqual(scanAll(path, { chunkBytes }), newestFirst(oracle(path)), `${f} chunk ${chunkBytes}`);
      }
    }
  });

  test(
    "scanTranscript() closes the file when the loop is broken out of",
    { skip: !existsSync("/proc/self/fd") },
    () => {
      withTempDir((dir) => {
        const path = writeTemp(dir, "close.jsonl", generateTranscriptText({ seed: 3, turns: 3 }));
        const before = readdirSync("/proc/self/fd").length;
        for (let i = 0; i < 50; i++) {
          for (const _row of scanTranscript(path, { chunkBytes: 256 })) break;
        }
        assert.equal(readdirSync("/proc/self/fd").length, before);
      });
    },
  );
});

describe("scanTranscript() on real transcripts", () => {
  const dirs = ["public", "claude-code-2.1.197/transcripts", "claude-code-2.1.197/transcript-snapshots"];
  const files = dirs.flatMap((d) =>
    readdirSync(join(FIXTURES, d)).filter((f) => f.endsWith(".jsonl")).map((f) => join(FIXTURES, d, f))
  );

  test("scanTranscript() finds the real fixture transcripts", () => {
    assert.ok(files.length >= 28, `found ${files.length}`);
  });

  for (const path of files) {
    const name = path.slice(FIXTURES.length + 1);
    test(`scanTranscript() matches the forward parse of ${name}`, () => {
      const size = statSync(path).size;
      const expected = newestFirst(oracle(path));
      assert.ok(expected.length > 0);
      assert.deepEqual(scanAll(path, { budgetBytes: size }), expected);
      assert.deepEqual(scanAll(path, { budgetBytes: size, chunkBytes: 1021 }), expected);
    });
  }
});
