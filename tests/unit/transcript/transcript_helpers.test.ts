import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scanTranscript } from "../../../lib/transcript/scan_transcript.ts";
import { mainChainRows } from "../../../lib/transcript/main_chain_rows.ts";
import { assistantMessages } from "../../../lib/transcript/assistant_messages.ts";
import { rowToolCalls, toolCalls } from "../../../lib/transcript/tool_calls.ts";
import { lastCompactBoundary } from "../../../lib/transcript/last_compact_boundary.ts";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";
import {
  containsAny,
  needle,
  reverseLines,
  type ReverseLinesStats,
  reverseTextLines,
} from "../../../lib/transcript/lines.ts";
import { Buffer } from "node:buffer";
import { generateTranscriptText } from "../_transcript_gen.ts";

const PUBLIC = join(import.meta.dirname!, "..", "..", "fixtures", "public");
const CC = join(import.meta.dirname!, "..", "..", "fixtures", "claude-code-2.1.197", "transcripts");
const JOKE = "/Users/philipp/dev/vibeinsights/fixtures/claudecode/JOKE.md";

function rows(path: string): TranscriptRow[] {
  return [...scanTranscript(path)];
}

describe("mainChainRows()", () => {
  test("mainChainRows() drops the summary, snapshot and inline sidechain rows of agentlogs__subagent.jsonl", () => {
    // Lines 1 (summary), 2 (file-history-snapshot), 7 and 8 (isSidechain) go; 3-6 and 9-11 stay.
    const kept = [...mainChainRows(rows(join(PUBLIC, "agentlogs__subagent.jsonl")))];
    assert.deepEqual(kept.map((r) => r.type), [
      "assistant",
      "assistant",
      "user",
      "assistant",
      "assistant",
      "assistant",
      "user",
    ]);
    assert.ok(kept.every((r) => r.isSidechain === false));
  });

  test("mainChainRows() drops progress rows and keeps system, attachment, user and assistant rows", () => {
    const kept = [...mainChainRows(rows(join(PUBLIC, "spotter__short.jsonl")))];
    // 15 lines: 3 progress and 1 file-history-snapshot dropped.
    assert.equal(kept.length, 11);
    assert.deepEqual([...new Set(kept.map((r) => r.type))].sort(), ["assistant", "system", "user"]);
  });

  test("mainChainRows() drops the synthetic API-error row of a real 2.1.197 transcript", () => {
    const all = rows(join(CC, "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf.jsonl"));
    const kept = [...mainChainRows(all)];
    assert.ok(all.some((r) => r.message?.model === "<synthetic>"));
    assert.ok(!kept.some((r) => r.message?.model === "<synthetic>"));
    // 87 lines: 10 last-prompt, 4 mode, 16 queue-operation and 1 synthetic row go.
    assert.equal(kept.length, 87 - 10 - 4 - 16 - 1);
  });
});

describe("assistantMessages()", () => {
  test("assistantMessages() keeps the newest row of each message id, whose output_tokens are final", () => {
    // agentlogs__subagent.jsonl: msg …9X3sG1 is lines 10 (output 4) and 11 (output 151); msg
    // …qE8K4d is lines 4-6 (output 8 each); line 8 is a sidechain message.
    const got = [...assistantMessages(rows(join(PUBLIC, "agentlogs__subagent.jsonl")))];
    assert.deepEqual(got.map((r) => [r.uuid, r.message?.usage?.output_tokens]), [
      ["e4a406ad-cf91-43f6-8ba2-52242b2013e7", 151],
      ["577cbc05-76bb-42f3-9cbc-e284c73ee1bf", 8],
    ]);
  });

  test("assistantMessages() lists the real 2.1.197 messages newest first without the synthetic one", () => {
    const got = [...assistantMessages(rows(join(CC, "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf.jsonl")))];
    assert.deepEqual(got.map((r) => r.message?.id), [
      "msg_b5a44a364dbbe0adcc3528ea",
      "msg_7ca025ef254e1c6e332c448c",
      "msg_e807e3f3b3f581bd437d2b5c",
      "msg_cdf01abc3665f5619feb64a2",
      "msg_15950b2846db6bc400035f48",
      "msg_151c93b8c75adf771ed00b65",
      "msg_885136a32f64bfb44a57ed05",
      "msg_43718ae84db8aee9956f8907",
    ]);
    // msg_4371… is lines 8 (text) and 9 (tool_use): the tool_use row is the newest.
    assert.equal((got.at(-1)!.message!.content as { type: string }[])[0].type, "tool_use");
  });
});

describe("toolCalls()", () => {
  test("toolCalls() lists the Write, Read, Edit, Bash and TodoWrite calls of agentlogs__crud.jsonl newest first", () => {
    const got = [...toolCalls(rows(join(PUBLIC, "agentlogs__crud.jsonl")))];
    assert.deepEqual(got.map((c) => [c.name, c.id, c.filePaths]), [
      ["TodoWrite", "toolu_014c8KUG3Hrxjj6ySbGqdrzg", []],
      ["Bash", "toolu_012tuX26pk8gokoCtkcQi6fh", [JOKE]], // rm <path>
      ["TodoWrite", "toolu_012GNtHgJ5iAZ6BFjMRdyPpG", []],
      ["Edit", "toolu_0198ui9CWP2HfDM9uYGahBxZ", [JOKE]],
      ["TodoWrite", "toolu_01EkpiWSB9fAakut9agbqLEy", []],
      ["Read", "toolu_017mrzqS3EfzPfNvf3Lywt9o", [JOKE]],
      ["TodoWrite", "toolu_01GTukPjR8Hmp1USGVN9iADi", []],
      ["Write", "toolu_01QJVoGNGRGH9v9TNN9LQzK9", [JOKE]],
      ["TodoWrite", "toolu_01DNPAC6nXbsWffwiQU8RMEb", []],
    ]);
    const bash = got[1];
    assert.equal(bash.rowUuid, "91ccb60c-df53-4708-8c0d-2fd06d45b004");
    assert.equal(bash.timestamp, "2025-10-12T21:36:30.934Z");
    assert.deepEqual(bash.normalizedPaths, [JOKE]);
    assert.equal(got[0].todos?.length, 4);
    assert.deepEqual(got[0].todos?.[0], {
      content: "Create JOKE.md file with a joke, title, and footer",
      status: "completed",
      activeForm: "Creating JOKE.md file with a joke, title, and footer",
    });
  });

  test("toolCalls() lists the calls of spotter__tool_heavy.jsonl with paths only where a file is named", () => {
    const got = [...toolCalls(rows(join(PUBLIC, "spotter__tool_heavy.jsonl")))];
    assert.deepEqual(got.map((c) => [c.name, c.filePaths]), [
      ["WebFetch", []],
      ["Read", ["/home/marco/projects/spotter/assets/js/app.js"]],
      ["Glob", []], // pattern only, no path
      ["WebSearch", []],
      ["Bash", ["/tmp/claude-1000/-home-marco-projects-spotter/tasks/bae407b.output"]], // tail -5 <path>
      ["Bash", []], // mix phx.server
    ]);
  });

  test("toolCalls() filters by name, normalises Windows paths and reads Skill names", () => {
    const row = (uuid: string, blocks: unknown[]): TranscriptRow => ({
      type: "assistant",
      uuid,
      isSidechain: false,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: { id: `msg_${uuid}`, model: "claude-opus-4-6", role: "assistant", content: blocks as never },
    });
    const input = [
      row("r3", [{ type: "tool_use", id: "t4", name: "Skill", input: { skill: "pdf" } }]),
      row("r2", [
        { type: "tool_use", id: "t2", name: "Edit", input: { file_path: "C:\\Users\\Dev\\a.ts" } },
        { type: "tool_use", id: "t3", name: "NotebookEdit", input: { notebook_path: "/n/b.ipynb" } },
      ]),
      row("r1", [{
        type: "tool_use",
        id: "t1",
        name: "Bash",
        input: { command: 'cat "D:\\x y\\z.txt" ./a/b.ts $HOME/c 2>/dev/null' },
      }]),
      {
        ...row("r0", [{ type: "tool_use", id: "t0", name: "Write", input: { file_path: "/side.ts" } }]),
        isSidechain: true,
      },
    ];
    const all = [...toolCalls(input)];
    assert.deepEqual(all.map((c) => c.id), ["t4", "t3", "t2", "t1"]);
    assert.equal(all[0].skill, "pdf");
    assert.deepEqual(all[2].normalizedPaths, ["c:/Users/Dev/a.ts"]);
    assert.deepEqual(all[2].filePaths, ["C:\\Users\\Dev\\a.ts"]);
    assert.deepEqual(all[3].filePaths, ["D:\\x y\\z.txt", "./a/b.ts"]);
    assert.deepEqual(all[3].normalizedPaths, ["d:/x y/z.txt", "./a/b.ts"]);
    assert.deepEqual([...toolCalls(input, { names: ["Edit", "NotebookEdit"] })].map((c) => c.id), ["t3", "t2"]);
  });

  test("rowToolCalls() gives toolCalls() of the one row, with and without names, on every fixture row", () => {
    const sets: (readonly string[] | undefined)[] = [undefined, ["Edit", "Write", "MultiEdit", "NotebookEdit"], [
      "Read",
    ]];
    let compared = 0;
    const dir = join(import.meta.dirname!, "..", "..", "fixtures");
    const files = [PUBLIC, CC].flatMap((d) =>
      readdirSync(d).filter((n) => n.endsWith(".jsonl")).map((n) => join(d, n))
    );
    assert.ok(files.length >= 10 && existsSync(dir), `only ${files.length} fixture transcripts`);
    // Rows that repeat an id within the row, or hold nothing but broken blocks.
    const dup: TranscriptRow = {
      type: "assistant",
      message: {
        role: "assistant",
        content: [
          { type: "tool_use", id: "a", name: "Read", input: { file_path: "/1" } },
          { type: "tool_use", id: "b", name: "Read", input: { file_path: "/2" } },
          { type: "tool_use", id: "a", name: "Read", input: { file_path: "/3" } },
          { type: "tool_use", id: 7, name: "Read" },
          null,
        ] as never,
      },
    };
    const extra: TranscriptRow[] = [dup, { ...dup, isSidechain: true }, {
      type: "assistant",
      message: { content: "x" },
    }];
    for (const row of [...files.flatMap((f) => rows(f)), ...extra]) {
      for (const names of sets) {
        const want = [...toolCalls([row], names === undefined ? {} : { names })];
        assert.deepEqual([...rowToolCalls(row, names === undefined ? undefined : new Set(names))], want);
        compared += want.length;
      }
    }
    assert.ok(compared > 200, `only ${compared} calls compared`);
    assert.deepEqual(rowToolCalls(dup).map((c) => c.filePaths[0]), ["/3", "/2"]);
  });
});

describe("lastCompactBoundary()", () => {
  test("lastCompactBoundary() reads the manual compaction of agentlogs__compact.jsonl", () => {
    assert.deepEqual(lastCompactBoundary(rows(join(PUBLIC, "agentlogs__compact.jsonl"))), {
      uuid: "a623034a-2670-4ca8-83f6-b21d2b5eb3c0",
      timestamp: "2025-10-10T21:57:51.963Z",
      trigger: "manual",
      preTokens: 15808,
      logicalParentUuid: "844dd3c8-1580-48b3-89e1-e6fe7e674ff8",
    });
  });

  test("lastCompactBoundary() returns the newest of three compactions with its postTokens", () => {
    // 35dd7dd6….jsonl line 81 is the third boundary.
    const got = lastCompactBoundary(rows(join(CC, "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf.jsonl")));
    assert.equal(got?.uuid, "f7d8e505-9cd1-468e-98b6-0046054757c1");
    assert.equal(got?.trigger, "auto");
    assert.equal(got?.preTokens, 172086);
    assert.equal(got?.postTokens, 761);
  });

  test("lastCompactBoundary() returns null without a compaction and ignores sidechain boundaries", () => {
    assert.equal(lastCompactBoundary(rows(join(PUBLIC, "spotter__tool_heavy.jsonl"))), null);
    assert.equal(lastCompactBoundary([{ type: "system", subtype: "compact_boundary", isSidechain: true }]), null);
  });
});

describe("helpers on generated transcripts", () => {
  test("the helpers agree with naive forward passes over generated transcripts", () => {
    const dir = mkdtempSync(join(tmpdir(), "transcript-helpers-"));
    try {
      for (let seed = 1; seed <= 25; seed++) {
        const text = generateTranscriptText({
          seed,
          turns: 6,
          toolResultBytes: 100,
          compactEvery: 2 + (seed % 3),
          windowsRate: 0.5,
        });
        const path = join(dir, `g-${seed}.jsonl`);
        writeFileSync(path, text);
        const forward: TranscriptRow[] = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
        const scanned = rows(path);
        const label = `seed ${seed}`;

        const main = forward.filter((r) =>
          r.isSidechain !== true && ["user", "assistant", "attachment", "system"].includes(r.type!) &&
          r.isApiErrorMessage !== true && r.message?.model !== "<synthetic>"
        );
        assert.deepEqual([...mainChainRows(scanned)], main.slice().reverse(), label);

        // Last row of each message id, ordered by that row, newest first.
        const lastOfId = new Map<string, TranscriptRow>();
        for (const r of main) if (r.type === "assistant") lastOfId.set(r.message!.id!, r);
        const expectedMessages = [...lastOfId.values()].sort((a, b) => main.indexOf(b) - main.indexOf(a));
        assert.deepEqual([...assistantMessages(scanned)], expectedMessages, label);

        const calls = main.filter((r) => r.type === "assistant").flatMap((r) =>
          (r.message!.content as { type: string; id: string; name: string; input: Record<string, string> }[])
            .filter((b) => b.type === "tool_use")
        ).reverse();
        const got = [...toolCalls(scanned)];
        assert.deepEqual(got.map((c) => c.id), calls.map((c) => c.id), label);
        for (const [i, call] of got.entries()) {
          const inp = calls[i].input;
          const named = [inp.file_path, inp.notebook_path, inp.path].filter((p) => typeof p === "string");
          // The generator's Bash command is `cat <path> | head -20 && ls -la /tmp/build`.
          const expected = call.name === "Bash" ? [inp.command.split(" ")[1], "/tmp/build"] : named;
          assert.deepEqual(call.filePaths, expected, `${label} ${call.name}`);
          assert.ok(call.normalizedPaths.every((p) => !p.includes("\\") && !/^[A-Z]:/.test(p)), label);
          if (call.name === "Skill") assert.equal(call.skill, inp.skill);
        }

        const boundaries = main.filter((r) => r.type === "system" && r.subtype === "compact_boundary");
        const newest = boundaries.at(-1);
        const got2 = lastCompactBoundary(scanned);
        assert.equal(got2?.uuid, newest?.uuid, label);
        assert.equal(got2?.postTokens, newest?.compactMetadata?.postTokens, label);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The oracle: the file split on `\n` bytes, each line decoded alone, the first without its BOM. */
function oracleLines(bytes: Buffer, budget: number): string[] {
  const start = Math.max(0, bytes.length - budget);
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const nl = bytes.indexOf(10, from);
    const stop = nl === -1 ? bytes.length : nl;
    // A line counts when its start is known: the newline before it was read, or offset 0 was.
    if (from > start || (from === 0 && start === 0)) {
      let line = bytes.subarray(
        from === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : from,
        stop,
      );
      if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
      if (line.length > 0) out.push(line.toString("utf8"));
    }
    if (nl === -1) break;
    from = nl + 1;
  }
  return out.reverse();
}

/** Every line of both readers, decoded; the two must agree. */
function readAll(path: string, budget: number, chunk: number): string[] {
  const text = reverseTextLines(path, budget, chunk);
  const out: string[] = [];
  for (let line = text.next(); line !== undefined; line = text.next()) out.push(line);
  const bytes = reverseLines(path, budget, chunk);
  let file = Buffer.alloc(0);
  try {
    file = readFileSync(path);
  } catch { /* no file, no lines */ }
  const decoded: string[] = [];
  for (let line = bytes.next(); line !== undefined; line = bytes.next()) {
    assert.ok(Buffer.isBuffer(line));
    const text = line.toString("utf8");
    decoded.push(text);
    // Where the line lies in the file, and read again from there (the line itself is only valid until next()).
    const at = bytes.lineStart();
    assert.equal(file.subarray(at, at + line.length).toString("utf8"), text, `lineStart, chunk ${chunk}`);
    assert.equal(Buffer.from(bytes.readAt(at, line.length)!).toString("utf8"), text, `readAt, chunk ${chunk}`);
  }
  assert.equal(bytes.readAt(0, 1), undefined, "the file is closed once read to the end");
  assert.deepEqual(decoded, out, `reverseLines and reverseTextLines, chunk ${chunk}, budget ${budget}`);
  return out;
}

describe("reverseLines() and reverseTextLines()", () => {
  test("reverseLines() and reverseTextLines() give the oracle's lines newest first for every chunk size and budget", () => {
    // Multi-byte characters, invalid UTF-8, CRLF, blank lines, a BOM mid-file and a line longer
    // than most chunks: every cut a chunk or the budget can make.
    const parts = [
      '\ufeff{"a":1}\r\n',
      "Zürich ✓ 𝄞\n",
      "\n\r\n",
      "\ufeffmid-file BOM stays\n",
      "x".repeat(300) + "é\n",
      "last, no newline 日本",
    ];
    const bytes = Buffer.concat([
      Buffer.from(parts.slice(0, 3).join(""), "utf8"),
      Buffer.from([0xff, 0x41, 0xe2, 0x82, 0x0a, 0xc3, 0x0a]), // invalid bytes, a cut sequence, a lone lead byte
      Buffer.from(parts.slice(3).join(""), "utf8"),
    ]);
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-lines-"));
    try {
      const path = join(dir, "t.jsonl");
      writeFileSync(path, bytes);
      for (const chunk of [1, 2, 3, 5, 7, 64, 301, 65_536]) {
        for (const budget of [1, 4, 17, 40, 333, 350, bytes.length - 1, bytes.length, 1 << 20]) {
          assert.deepEqual(
            readAll(path, budget, chunk),
            oracleLines(bytes, budget),
            `chunk ${chunk}, budget ${budget}`,
          );
        }
      }
      assert.ok(readAll(path, 1 << 20, 7).includes("\ufeffmid-file BOM stays"));
      assert.equal(readAll(path, 1 << 20, 7).at(-1), '{"a":1}');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("reverseLines() with an end reads the file as if it ended there, and goes on where a budget stopped", () => {
    const parts = [
      '\ufeff{"a":1}\r\n',
      "Zürich ✓ 𝄞\n",
      "\n\r\n",
      "x".repeat(300) + "é\n",
      '{"b":2}\n',
      "last, no newline 日本",
    ];
    const bytes = Buffer.from(parts.join(""), "utf8");
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-lines-"));
    try {
      const path = join(dir, "t.jsonl");
      writeFileSync(path, bytes);
      const read = (budget: number, chunk: number, end?: number, stats?: ReverseLinesStats) => {
        const lines = reverseLines(path, budget, chunk, stats, end);
        const out: string[] = [];
        for (let line = lines.next(); line !== undefined; line = lines.next()) out.push(line.toString("utf8"));
        return out;
      };
      for (const chunk of [1, 3, 7, 64, 65_536]) {
        for (let end = 0; end <= bytes.length + 2; end += end < 40 ? 1 : 17) {
          for (const budget of [5, 60, 1 << 20]) {
            assert.deepEqual(
              read(budget, chunk, end),
              oracleLines(bytes.subarray(0, Math.min(end, bytes.length)), budget),
              `chunk ${chunk}, end ${end}, budget ${budget}`,
            );
          }
        }
        // A read cut by its budget, then one from the last line it gave: together, the whole file's lines.
        for (const budget of [1, 9, 40, 311, 320, bytes.length - 1]) {
          const stats: ReverseLinesStats = { bytesRead: 0, reachedStart: false };
          const first = read(budget, chunk, undefined, stats);
          const rest = read(1 << 20, chunk, stats.lastLineStart);
          assert.deepEqual([...first, ...rest], oracleLines(bytes, 1 << 20), `chunk ${chunk}, budget ${budget}`);
          if (first.length > 0) {
            assert.equal(bytes.subarray(stats.lastLineStart!).toString("utf8").startsWith(first.at(-1)!), true);
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("reverseLines() and reverseTextLines() give nothing for a missing file, an empty path or a directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-lines-"));
    try {
      for (const p of [join(dir, "none.jsonl"), "", dir]) assert.deepEqual(readAll(p, 1 << 20, 64), [], p);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("reverseLines() and reverseTextLines() close the file when read to the end or closed early", {
    skip: !existsSync("/proc/self/fd"),
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-lines-"));
    try {
      const path = join(dir, "t.jsonl");
      writeFileSync(path, "a\nb\nc\n".repeat(1000));
      const open = () => readdirSync("/proc/self/fd").length;
      const before = open();
      for (const read of [reverseLines, reverseTextLines]) {
        const all = read(path, 1 << 20, 64);
        while (all.next() !== undefined) { /* to the end */ }
        assert.equal(open(), before, `${read.name} read to the end`);
        const some = read(path, 1 << 20, 64);
        some.next();
        assert.equal(open(), before + 1, `${read.name} open while read`);
        some.close();
        assert.equal(open(), before, `${read.name} closed early`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("needle()", () => {
  test("needle() gives a Buffer of the UTF-8 bytes, found by indexOf like Buffer.from's", () => {
    for (const s of ['"assistant"', '"compact_boundary"', "\\u00", "Zürich ✓ 𝄞", ""]) {
      const n = needle(s);
      assert.ok(Buffer.isBuffer(n), s);
      assert.deepEqual([...n], [...Buffer.from(s, "utf8")], s);
    }
    const line = Buffer.from('{"type":"assistant","message":{"content":"Zürich ✓"}}', "utf8");
    assert.equal(line.indexOf(needle("Zürich")), line.indexOf(Buffer.from("Zürich", "utf8")));
    assert.ok(line.indexOf(needle("Zürich")) > 0);
    assert.equal(containsAny(line, [needle('"user"'), needle('"assistant"')]), true);
    assert.equal(containsAny(line, [needle('"user"'), needle('"compact_boundary"')]), false);
  });
});
