// PreCompact keeps tool-result lines unparsed until a call needs them
// (collectEvidenceFromLines); the evidence must be exactly what the eager pass (collectEvidence over
// scanTranscript's rows) finds, on real, fixture, generated and hostile transcripts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { scanTranscript, type ScanTranscriptStats } from "../../../lib/transcript/scan_transcript.ts";
import { reverseLines, type ReverseLinesStats } from "../../../lib/transcript/lines.ts";
import {
  collectEvidence,
  collectEvidenceFromLines,
  type DetectionEvidence,
  MAX_REPORT_CHARS,
  MAX_RESULT_CHARS,
  MAX_TOTAL_TEXT_CHARS,
  resultTextChars,
  SEARCH_RESULT_CALLS,
  SHELL_RESULT_CALLS,
} from "../../../lib/detect/_evidence.ts";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";
import { toolResultLineIds } from "../../../lib/transcript/tool_result_line.ts";
import { detectWorkspace } from "../../../lib/detect/workspace.ts";
import { createRandom, generateTranscriptText, type TranscriptMess } from "../_transcript_gen.ts";
import { transcriptLines } from "../../../bench/gen/transcript.ts";

const HERE = join(import.meta.dirname!, "..", "..", "fixtures");

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...jsonlFiles(p));
    else if (e.name.endsWith(".jsonl")) out.push(p);
  }
  return out.sort();
}

interface Pass {
  evidence: DetectionEvidence;
  bytesRead: number;
}

function eager(path: string, budget: number, chunk: number, maxCalls?: number): Pass {
  const stats: ScanTranscriptStats = { bytesRead: 0, reachedStart: false, skippedLines: 0 };
  const evidence = collectEvidence(scanTranscript(path, { budgetBytes: budget, chunkBytes: chunk, stats }), {
    maxCalls,
    transcript: path,
  });
  return { evidence, bytesRead: stats.bytesRead };
}

function lazy(path: string, budget: number, chunk: number, maxCalls?: number): Pass {
  const stats: ReverseLinesStats = { bytesRead: 0, reachedStart: false };
  const lines = reverseLines(path, budget, chunk, stats);
  try {
    const evidence = collectEvidenceFromLines(lines, { maxCalls, transcript: path });
    return { evidence, bytesRead: stats.bytesRead };
  } finally {
    lines.close();
  }
}

const CASES: ReadonlyArray<{ budget: number; chunk: number; maxCalls?: number }> = [
  { budget: 8 << 20, chunk: 65_536 },
  { budget: 8 << 20, chunk: 65_536, maxCalls: 1 },
  { budget: 8 << 20, chunk: 65_536, maxCalls: 7 },
  { budget: 8 << 20, chunk: 1000, maxCalls: 400 },
  { budget: 20_000, chunk: 4096 },
  { budget: 3000, chunk: 777 },
];

function assertSame(path: string, label = path): void {
  for (const c of CASES) {
    const want = eager(path, c.budget, c.chunk, c.maxCalls);
    const got = lazy(path, c.budget, c.chunk, c.maxCalls);
    assert.deepStrictEqual(got, want, `${label} ${JSON.stringify(c)}`);
  }
}

function withTempDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "detect-lazy-"));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- Hostile transcripts --------------------------------------------------------------------

const SESSION = "5f0c1a8e-7b2d-4c3e-9a41-b3d2e6f70a19";
const RESULT_NAMES = ["Grep", "Glob", "Bash", "Task", "LS", "Agent"];
const OTHER_NAMES = ["Read", "Edit", "Write", "TodoWrite"];

function env(type: string, extra: Record<string, unknown>, i: number): Record<string, unknown> {
  return {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: i % 3 === 0 ? "/w/02-projects" : "/w",
    sessionId: i % 4 === 0 ? "a-resumed-session" : SESSION,
    type,
    ...extra,
    uuid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  };
}

function callRow(id: string, name: string, i: number): string {
  const input = name === "Bash"
    ? { command: `cat /w/02-projects/p${i % 3}/notes.md` }
    : { path: `/w/02-projects/p${i % 3}`, pattern: "x" };
  const row = env("assistant", {
    message: {
      id: `msg_${i}`,
      role: "assistant",
      model: "claude-opus-4-6",
      content: [{ type: "tool_use", id, name, input }],
    },
  }, i);
  return JSON.stringify(row);
}

function resultBlock(id: string, content: unknown, isError?: boolean): Record<string, unknown> {
  const b: Record<string, unknown> = { tool_use_id: id, type: "tool_result", content };
  if (isError !== undefined) b.is_error = isError;
  return b;
}

const TRICKY_TEXT = [
  "plain /w/02-projects/p1/a.md",
  'quote \\" and backslash \\\\ end\\',
  'a "tool_use_id":"toolu_X" and "message":{"role":"user"} inside',
  '"}]},"type":"assistant","message":{"content":"hi"}',
  "line\nbreak\r\ttab \u001b[31m red \u0000 nul",
  "ünï 日本語 🚀",
  "\\",
  "",
];

/** One line answering `id`, in a shape chosen by `kind`; some shapes must be parsed, some may wait. */
function resultLine(id: string, kind: number, i: number, rnd: () => number, otherId: string): string {
  const text = TRICKY_TEXT[Math.floor(rnd() * TRICKY_TEXT.length)] + ` /w/02-projects/p${i % 3}/f${i}.md`;
  const tur = rnd() < 0.5
    ? { filenames: [`/w/02-projects/p${i % 3}/g${i}.md`, "", 3] }
    : { type: "text", file: { content: text } };
  const msg = (content: unknown) => ({ role: "user", content });
  switch (kind) {
    case 0: // the common shape
      return JSON.stringify(env("user", { message: msg([resultBlock(id, text)]), toolUseResult: tur }, i));
    case 1: // with is_error and a text-block content
      return JSON.stringify(
        env("user", {
          message: msg([resultBlock(id, [{ type: "text", text }, { type: "text", text: "two" }], rnd() < 0.5)]),
          toolUseResult: tur,
        }, i),
      );
    case 2: // a result and a prompt text in one row
      return JSON.stringify(
        env("user", { message: msg([resultBlock(id, text), { type: "text", text: "Continue with p2" }]) }, i),
      );
    case 3: // a sidechain result
      return JSON.stringify(
        env("user", { isSidechain: true, message: msg([resultBlock(id, text)]), toolUseResult: tur }, i),
      );
    case 4: // two blocks, the same id twice, another id
      return JSON.stringify(
        env("user", {
          message: msg([resultBlock(id, "first"), resultBlock(otherId, text), resultBlock(id, text, false)]),
        }, i),
      );
    case 5: // a second message key with a prompt
      return JSON.stringify(env("user", { message: msg([resultBlock(id, text)]) }, i)).slice(0, -1) +
        ',"message":{"role":"user","content":"Work on p2 now"}}';
    case 6: // a compact boundary that carries a result-shaped message
      return JSON.stringify(env("system", { subtype: "compact_boundary", message: msg([resultBlock(id, text)]) }, i));
    case 7: // an escaped key that decodes to "message"
      return JSON.stringify(env("user", { message: msg([resultBlock(id, text)]) }, i)).slice(0, -1) +
        ',"mess\\u0061ge":{"role":"user","content":"Work on p0"}}';
    case 8: // invalid JSON after the message
      return JSON.stringify(env("user", { message: msg([resultBlock(id, text)]), toolUseResult: tur }, i)).slice(
        0,
        -1,
      ) + ",}";
    case 9: // an assistant row carrying a result-shaped message
      return JSON.stringify(env("assistant", { message: msg([resultBlock(id, text)]) }, i));
    case 10: // a later duplicate type key
      return JSON.stringify(env("user", { message: msg([resultBlock(id, text)]), toolUseResult: tur }, i)).slice(
        0,
        -1,
      ) + ',"type":"progress"}';
    case 11: // a synthetic API-error flag
      return JSON.stringify(env("user", { isApiErrorMessage: true, message: msg([resultBlock(id, text)]) }, i));
    case 12: // message first, no cwd, other key order
      return JSON.stringify({
        message: msg([resultBlock(id, text)]),
        type: "user",
        sessionId: SESSION,
        toolUseResult: tur,
        isSidechain: false,
      });
    case 13: // the message nested, not at the top
      return JSON.stringify(env("user", { toolUseResult: { message: msg([resultBlock(id, text)]) } }, i));
    case 14: // progress with a result inside
      return JSON.stringify(
        env("progress", { data: { message: { type: "user", message: msg([resultBlock(id, text)]) } } }, i),
      );
    case 15: // an escaped quote in the id-like text and a trailing backslash in the content
      return JSON.stringify(
        env("user", { message: msg([resultBlock(id, "end with backslash \\")]), toolUseResult: tur }, i),
      );
    default: // a prompt that quotes a result line
      return JSON.stringify(
        env("user", { message: msg(`Look: {"tool_use_id":"${id}","type":"tool_result","content":"x"}`) }, i),
      );
  }
}

/** A transcript (oldest first) of calls and their results in hostile shapes, some results repeated. */
/**
 * An assistant row of thinking only (not parsed once the slug is known), with a slug or not, or one
 * that only looks like it: a text block or a tool call whose type is spelled with an escape.
 */
function thinkingRow(n: number, i: number, pick: number): string {
  const thought = {
    type: "thinking",
    thinking: `The "text" of p${n % 3}, a "tool_use" and a "user" later`,
    signature: "c2ln",
  };
  const message = { id: `msg_t${i}`, role: "assistant", model: "claude-opus-4-6", content: [thought] };
  const row = JSON.stringify(env("assistant", pick < 0.5 ? { message } : { message, slug: `thought-${n}` }, i));
  if (pick < 0.7) return row;
  const file = `/w/02-projects/p${n % 3}/hidden${n}.md`;
  const hidden = pick < 0.85
    ? `{"type":"\\u0074ext","text":"See ${file}"}`
    : `{"type":"tool\\u005fuse","id":"toolu_hidden_${i}","name":"Read","input":{"file_path":"${file}"}}`;
  return row.replace('"signature":"c2ln"}]', `"signature":"c2ln"},${hidden}]`);
}

function hostileTranscript(seed: number): string {
  const rnd = createRandom(seed);
  const lines: string[] = [];
  let i = 1;
  const firstIsResult = rnd() < 0.5;
  if (firstIsResult) lines.push(resultLine("toolu_first", Math.floor(rnd() * 17), i++, rnd, "toolu_none"));
  for (let n = 0; n < 30; n++) {
    const id = `toolu_${seed}_${n}`;
    const name = rnd() < 0.7
      ? RESULT_NAMES[Math.floor(rnd() * RESULT_NAMES.length)]
      : OTHER_NAMES[Math.floor(rnd() * OTHER_NAMES.length)];
    if (rnd() < 0.15) {
      lines.push(JSON.stringify(env("user", { message: { role: "user", content: `Prompt ${n} on p${n % 3}` } }, i++)));
    }
    lines.push(callRow(id, name, i++));
    // Rows with no message: a hook's progress (inert), and rows that only look inert: a prompt
    // whose key is escaped, an assistant row giving the plan's slug, an attachment.
    const extra = rnd();
    if (extra < 0.3) {
      lines.push(
        JSON.stringify(env("progress", { data: { type: "hook_progress", hookName: `PostToolUse:${name}` } }, i++)),
      );
    } else if (extra < 0.4) {
      lines.push(
        JSON.stringify(env("user", { permissionMode: "plan" }, i++)).slice(0, -1) +
          ',"mess\\u0061ge":{"role":"user","content":"Work on p1 now"}}',
      );
    } else if (extra < 0.5) {
      lines.push(JSON.stringify(env("assistant", { slug: `plan-${n}` }, i++)));
    } else if (extra < 0.6) {
      lines.push(
        JSON.stringify(
          env("attachment", { attachment: { type: "file", filename: `/w/02-projects/p${n % 3}/att${n}.md` } }, i++),
        ),
      );
    } else if (extra < 0.75) {
      lines.push(thinkingRow(n, i++, rnd()));
    }
    const answers = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < answers; k++) {
      const other = `toolu_${seed}_${Math.floor(rnd() * 30)}`;
      lines.push(resultLine(rnd() < 0.9 ? id : other, Math.floor(rnd() * 17), i++, rnd, other));
    }
  }
  // The newest main-chain row may be a result (it gives cwd and sessionId), or a cut result.
  const newest = rnd();
  if (newest < 0.3) lines.push(resultLine(`toolu_${seed}_29`, rnd() < 0.5 ? 0 : 12, i++, rnd, "toolu_none"));
  if (newest < 0.15) {
    const prompt = env("user", { message: { role: "user", content: "Newest prompt, no session id" } }, i++);
    delete prompt.sessionId;
    lines.push(JSON.stringify(prompt));
  }
  if (newest >= 0.3 && newest < 0.6) {
    const last = resultLine(`toolu_${seed}_29`, 0, i++, rnd, "toolu_none");
    lines.push(last.slice(0, Math.floor(last.length * (0.3 + 0.69 * rnd()))));
    return lines.join(rnd() < 0.5 ? "\n" : "\r\n");
  }
  return lines.join(rnd() < 0.5 ? "\n" : "\r\n") + "\n";
}

// --- Result lines read as Latin-1 (lib/transcript/latin1_row.ts) ---------------------------

/** Raw pieces a string of a result line may hold, as bytes: valid and invalid UTF-8, escapes. */
const RAW_PIECES: readonly Buffer[] = [
  Buffer.from("plain /w/02-projects/p1/a.md "),
  Buffer.from("café 日本語 🚀 → €"),
  Buffer.from([0xc3]), // a lead byte alone
  Buffer.from([0xe2, 0x82]), // a sequence cut short
  Buffer.from([0xff, 0x80, 0xbf]), // never valid
  Buffer.from([0xed, 0xa0, 0x80]), // a surrogate encoded
  Buffer.from([0xf0, 0x9f, 0x9a]), // a cut emoji
  Buffer.from("\\\\u00e9"), // an escaped backslash, then the letters
  Buffer.from("\\u001b[31m red"), // an escape to ASCII
  Buffer.from('\\n\\t\\"\\\\'),
  Buffer.from("\\u00e9"), // an escape above ASCII: read as UTF-8
  Buffer.from("\\ud83d\\ude80"), // a surrogate pair escaped
  Buffer.from("\\ud800"), // a lone surrogate escaped
  Buffer.from([0xc3, 0x5c, 0x6e]), // a lead byte, then an escape
];
/**
 * Longer than the evidence keeps of a result, in characters and in bytes; three bytes a character
 * where the cut falls (the most UTF-8 takes for one UTF-16 unit).
 */
const LONG_PIECE = Buffer.from("€".repeat(4500) + "é€🚀\\n".repeat(300));

/** A string of 1-4 random pieces, quoted, as bytes. */
function rawString(rnd: () => number): Buffer {
  const parts: Buffer[] = [Buffer.from('"')];
  if (rnd() < 0.04) parts.push(LONG_PIECE);
  for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) parts.push(RAW_PIECES[Math.floor(rnd() * RAW_PIECES.length)]);
  if (rnd() < 0.04) parts.push(LONG_PIECE, RAW_PIECES[Math.floor(rnd() * RAW_PIECES.length)]);
  parts.push(Buffer.from('"'));
  return Buffer.concat(parts);
}

/** `template` with each `@S@` replaced by a raw string. */
function rawLine(template: string, rnd: () => number): Buffer {
  const parts = template.split('"@S@"');
  const out: Buffer[] = [];
  parts.forEach((p, k) => {
    if (k > 0) out.push(rawString(rnd));
    out.push(Buffer.from(p));
  });
  return Buffer.concat(out);
}

/** A transcript (oldest first) of Bash and Grep calls whose results hold raw bytes in every string the pass keeps. */
function rawTranscript(seed: number): Buffer {
  const rnd = createRandom(seed * 7919);
  const lines: Buffer[] = [];
  let i = 1;
  for (let n = 0; n < 25; n++) {
    const id = `toolu_${seed}_${n}`;
    lines.push(Buffer.from(callRow(id, rnd() < 0.5 ? "Bash" : "Grep", i++)));
    // Strings and text blocks (the lazy shapes), and blocks only the parse reads.
    const content = ([
      "@S@",
      [{ type: "text", text: "@S@" }, { type: "text", text: "@S@" }],
      [{ type: "text", text: "@S@", __proto__x: "@S@" }],
      [{ text: "@S@", type: "text" }],
    ] as unknown[])[Math.floor(rnd() * 4)];
    let tur: unknown = rnd() < 0.5
      ? { filenames: ["@S@", "/w/02-projects/p1/b.md", "@S@"] }
      : { stdout: "@S@", stderr: "" };
    if (rnd() < 0.15) tur = { ["t\u00e9st"]: 1, filenames: ["@S@"] };
    let json = JSON.stringify(
      env(
        "user",
        { message: { role: "user", content: [resultBlock(id, content, rnd() < 0.2)] }, toolUseResult: tur },
        i++,
      ),
    );
    json = json.replace('"__proto__x"', '"__proto__"');
    // Now and then a key only the UTF-8 reading merges, or raw bytes where JSON allows none.
    const r = rnd();
    if (r < 0.08) json = json.slice(0, -1) + ',"toolUseResult":{"filenames":["@S@"]}}';
    else if (r < 0.12) json = json.slice(0, -1) + ',"caf\u00e9":1,"café":2}';
    const line = rawLine(json, rnd);
    lines.push(r >= 0.12 && r < 0.15 ? Buffer.concat([line.subarray(0, -1), Buffer.from([0x2c, 0xc3, 0x7d])]) : line);
  }
  lines.push(Buffer.from(JSON.stringify(env("user", { message: { role: "user", content: "Newest prompt" } }, i++))));
  return Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]));
}

describe("collectEvidenceFromLines()", () => {
  test("collectEvidenceFromLines() finds the eager evidence on every captured, public and local fixture transcript", () => {
    const files = ["claude-code-2.1.197", "public", "transcripts", "detection"].flatMap((d) =>
      jsonlFiles(join(HERE, d))
    );
    assert.ok(files.length >= 47, `only ${files.length} fixture transcripts`);
    for (const path of files) assertSame(path);
  });

  test("collectEvidenceFromLines() finds the eager evidence on development-set sessions (subagents, snapshots, tasks, plan mode)", () => {
    // Sessions whose agent_progress rows, file-history snapshots, TaskCreate results and plan-mode
    // prompts feed the working set (tests/fixtures/detection-dev).
    const names = ["entireio__3ae3ab59", "entireio__062a8bdd", "entireio__aa4038a5"];
    const seen = { subagentCalls: 0, trackedFiles: 0, taskCreates: 0, slugs: 0 };
    withTempDir((dir) => {
      for (const name of names) {
        const path = join(dir, `${name}.jsonl`);
        writeFileSync(path, gunzipSync(readFileSync(join(HERE, "detection-dev", `${name}.jsonl.gz`))));
        for (const c of [CASES[0], CASES[3]]) {
          assert.deepStrictEqual(
            lazy(path, c.budget, c.chunk, c.maxCalls),
            eager(path, c.budget, c.chunk, c.maxCalls),
            `${name} ${JSON.stringify(c)}`,
          );
        }
        const { evidence } = lazy(path, CASES[0].budget, CASES[0].chunk);
        seen.subagentCalls += evidence.subagentCalls.length;
        seen.trackedFiles += evidence.trackedFiles.length;
        seen.taskCreates += evidence.calls.filter((c) =>
          c.call.name === "TaskCreate" && c.resultText !== undefined
        ).length;
        if (evidence.slug !== undefined) seen.slugs++;
      }
    });
    for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `no ${what} in ${names.join(", ")}`);
  });

  test("collectEvidenceFromLines() finds the eager evidence on seeded generated transcripts with on-disk damage", () => {
    withTempDir((dir) => {
      for (let seed = 1; seed <= 25; seed++) {
        const rnd = createRandom(seed * 104_729);
        const mess: TranscriptMess = {
          bom: rnd() < 0.4,
          crlfRate: rnd() < 0.5 ? rnd() : 0,
          blankRate: rnd() < 0.4 ? rnd() * 0.2 : 0,
          invalidRate: rnd() < 0.4 ? rnd() * 0.2 : 0,
          lastLine: (["newline", "none", "half"] as const)[Math.floor(rnd() * 3)],
        };
        const path = join(dir, `g${seed}.jsonl`);
        writeFileSync(path, generateTranscriptText({ seed, turns: 6 + (seed % 9), compactEvery: seed % 4, mess }));
        assertSame(path, `seed ${seed}`);
      }
    });
  });

  test("collectEvidenceFromLines() finds the eager evidence on benchmark transcripts", () => {
    withTempDir((dir) => {
      for (const seed of [1, 2, 3]) {
        const path = join(dir, `b${seed}.jsonl`);
        writeFileSync(
          path,
          [...transcriptLines({ targetBytes: 300_000, workspace: "/w", sessionId: SESSION, seed })].join(""),
        );
        assertSame(path, `bench seed ${seed}`);
      }
    });
  });

  test("collectEvidenceFromLines() finds the eager evidence on hostile result lines", () => {
    withTempDir((dir) => {
      for (let seed = 1; seed <= 150; seed++) {
        const path = join(dir, `h${seed}.jsonl`);
        writeFileSync(path, hostileTranscript(seed));
        assertSame(path, `hostile seed ${seed}`);
      }
    });
  });

  test("collectEvidenceFromLines() finds the eager evidence on result lines of raw, invalid and escaped bytes", () => {
    let lazyLines = 0;
    let kept = 0;
    withTempDir((dir) => {
      for (let seed = 1; seed <= 60; seed++) {
        const path = join(dir, `r${seed}.jsonl`);
        const text = rawTranscript(seed);
        writeFileSync(path, text);
        assertSame(path, `raw seed ${seed}`);
        for (const line of text.toString("latin1").split("\n")) {
          if (line !== "" && toolResultLineIds(Buffer.from(line, "latin1")) !== undefined) lazyLines++;
        }
        kept += lazy(path, 8 << 20, 65_536).evidence.calls.filter((c) => c.resultText !== undefined).length;
      }
    });
    // Most result lines must take the lazy path, and most calls keep a result, or this proves little.
    assert.ok(lazyLines > 60 * 25 * 0.4, `only ${lazyLines} lines kept for later`);
    assert.ok(kept > 60 * 25 * 0.5, `only ${kept} results kept`);
  });

  test("detectWorkspace() gives the eager detection on a hostile transcript", () => {
    withTempDir((dir) => {
      const path = join(dir, "h.jsonl");
      writeFileSync(path, hostileTranscript(7));
      const found = detectWorkspace(path, { projectDir: "/w" });
      const want = eager(path, 8 << 20, 65_536);
      assert.equal(found.bytesScanned, want.bytesRead);
      assert.equal(found.toolCallsScanned, want.evidence.calls.length);
      assert.equal(found.sessionId, want.evidence.sessionId);
      assert.equal(found.cwd, want.evidence.cwd);
    });
  });
});

describe("toolResultLineIds()", () => {
  const line = (s: string) => Buffer.from(s, "utf8");
  const common = (id: string, content: unknown, extra = "") =>
    `{"parentUuid":null,"isSidechain":false,"cwd":"/w","type":"user","message":{"role":"user","content":[${
      JSON.stringify({ tool_use_id: id, type: "tool_result", content })
    }]}${extra},"toolUseResult":{"type":"text","file":{"content":"x"}}}`;

  test("toolResultLineIds() recognises the rows the client writes for results", () => {
    assert.deepEqual(toolResultLineIds(line(common("toolu_01A", 'a "quoted" 日本語 \\'))), ["toolu_01A"]);
    assert.deepEqual(toolResultLineIds(line(common("toolu_01B", [{ type: "text", text: "t" }]))), ["toolu_01B"]);
    const two =
      `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"a","type":"tool_result","content":"x","is_error":true},{"tool_use_id":"b","type":"tool_result","content":""}]},"cwd":"/w"}`;
    assert.deepEqual(toolResultLineIds(line(two)), ["a", "b"]);
    // Ids of every length up to 200 characters, first and second block, with and without the flag.
    for (const n of [1, 30, 60, 100, 127, 128, 150, 199, 200]) {
      const a = "a".repeat(n);
      const b = "b".repeat(n);
      const both =
        `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"${a}","type":"tool_result","content":"x","is_error":false},{"tool_use_id":"${b}","type":"tool_result","content":"y"}]}}`;
      assert.deepEqual(toolResultLineIds(line(both)), [a, b], `ids of ${n}`);
    }
    assert.equal(toolResultLineIds(line(common("a".repeat(201), "x"))), undefined);
  });

  test("toolResultLineIds() leaves to the parser every line whose bytes do not prove it", () => {
    const refused = [
      // a text block beside the result
      `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"a","type":"tool_result","content":"x"},{"type":"text","text":"hi"}]}}`,
      // a second message key
      common("a", "x", ',"message":{"role":"user","content":"hi"}'),
      // an escape that may spell a key
      common("a", "x", ',"mess\\u0061ge":{"role":"user","content":"hi"}'),
      // a compact boundary anywhere
      common("a", "x", ',"subtype":"compact_boundary"'),
      // an unterminated content string
      `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"a","type":"tool_result","content":"x\\"}]}}`,
      // a duplicate key inside the message
      `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"a","type":"tool_result","content":"x"}],"content":"hi"}}`,
      // an escaped id
      `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"\\u0061","type":"tool_result","content":"x"}]}}`,
      // spaces (not the client's format)
      `{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "a", "type": "tool_result", "content": "x"}]}}`,
    ];
    for (const s of refused) assert.equal(toolResultLineIds(line(s)), undefined, s);
  });
});

describe("the cap on text evidence", () => {
  test("texts stop at MAX_TOTAL_TEXT_CHARS, newest first, while tool calls and prompt turns are still counted", () => {
    const chunk = "x".repeat(10_000);
    const rows: TranscriptRow[] = [];
    // Newest first, as the scan yields them: 150 assistant texts of 10,000 characters, then a
    // prompt and a tool call older than all of them.
    for (let i = 0; i < 150; i++) {
      rows.push(
        {
          type: "assistant",
          sessionId: "s",
          cwd: "/w",
          message: { role: "assistant", content: [{ type: "text", text: `${i} ${chunk}` }] },
        } as TranscriptRow,
      );
    }
    rows.push(
      { type: "user", sessionId: "s", cwd: "/w", message: { role: "user", content: "older prompt" } } as TranscriptRow,
    );
    rows.push(
      {
        type: "assistant",
        sessionId: "s",
        cwd: "/w",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/w/a.ts" } }],
        },
      } as TranscriptRow,
    );
    const ev = collectEvidence(rows);
    const held = ev.texts.reduce((n, t) => n + t.text.length, 0);
    assert.ok(held >= MAX_TOTAL_TEXT_CHARS && held < MAX_TOTAL_TEXT_CHARS + 10_010, `held ${held}`);
    assert.equal(ev.texts[0].text.slice(0, 2), "0 ", "the newest text is kept");
    assert.ok(ev.texts.length < 150, "older texts beyond the cap are left out");
    assert.ok(!ev.texts.some((t) => t.text === "older prompt"));
    assert.equal(ev.calls.length, 1, "tool calls are still collected");
    assert.equal(ev.calls[0].turn, 1, "the prompt past the cap still counts as a turn");
  });
});

describe("what the evidence keeps of a result", () => {
  /** Rows newest first: for each of `names` (newest first) a result row, then its call. */
  function callsWithResults(names: string[], text: (i: number) => string): TranscriptRow[] {
    const rows: TranscriptRow[] = [];
    names.forEach((name, i) => {
      rows.push({
        type: "user",
        sessionId: "s",
        cwd: "/w",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: text(i) }] },
      } as TranscriptRow);
      rows.push({
        type: "assistant",
        sessionId: "s",
        cwd: "/w",
        message: { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name, input: { command: "ls" } }] },
      } as TranscriptRow);
    });
    return rows;
  }

  test(`shell results for the newest ${SHELL_RESULT_CALLS} calls, search results for ${SEARCH_RESULT_CALLS}; subagent and task results at any age`, () => {
    // Shell and search calls on both sides of their cut, the others before and after them.
    const names = Array.from(
      { length: 80 },
      (_, i) =>
        Math.abs(i - SHELL_RESULT_CALLS) <= 2
          ? "Bash"
          : Math.abs(i - SEARCH_RESULT_CALLS) <= 3
          ? ["Grep", "Glob", "LS"][i % 3]
          : ["Bash", "Grep", "Agent", "TaskCreate", "Glob", "Task", "LS"][i % 7],
    );
    const ev = collectEvidence(callsWithResults(names, (i) => `/w/f${i}.ts`), { maxCalls: 80 });
    assert.equal(ev.calls.length, 80);
    const limit = (name: string) =>
      name === "Bash" ? SHELL_RESULT_CALLS : ["Grep", "Glob", "LS"].includes(name) ? SEARCH_RESULT_CALLS : Infinity;
    for (const c of ev.calls) {
      const kept = c.age < limit(c.call.name);
      assert.equal(c.resultText, kept ? `/w/f${c.age}.ts` : undefined, `${c.call.name} at ${c.age}`);
    }
    for (const name of ["Bash", "Grep", "Glob", "LS", "Agent", "TaskCreate"]) {
      assert.ok(ev.calls.some((c) => c.call.name === name && c.resultText !== undefined), `${name} kept somewhere`);
    }
    assert.ok(ev.calls.some((c) => c.call.name === "LS" && c.age >= SEARCH_RESULT_CALLS), "an old LS call");
  });

  test("a result is cut one character past what the working set reads", () => {
    const long = (i: number) => `${i} ${"a/b.ts\n".repeat(5000)}`;
    const ev = collectEvidence(callsWithResults(["Bash", "Grep", "Agent", "Task", "TaskCreate"], long));
    const lengths = Object.fromEntries(ev.calls.map((c) => [c.call.name, c.resultText?.length]));
    assert.deepEqual(lengths, {
      Bash: resultTextChars("Bash"),
      Grep: MAX_RESULT_CHARS + 1,
      Agent: MAX_REPORT_CHARS + 1,
      Task: MAX_REPORT_CHARS + 1,
      TaskCreate: MAX_RESULT_CHARS + 1,
    });
    assert.ok(ev.calls.every((c) => long(c.age).startsWith(c.resultText!)));
  });
});
