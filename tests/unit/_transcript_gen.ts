/**
 * Seeded generator of realistic Claude Code transcripts (JSONL) for the scanner tests and the
 * benchmark. Rows follow the real transcripts in tests/fixtures/claude-code-2.1.197/transcripts and
 * tests/fixtures/public: user prompts, assistant rows
 * one per content block sharing `message.id` and usage, tool_use blocks of the common tools with
 * POSIX and Windows paths, tool results with large contents and `toolUseResult`, progress rows
 * (including `agent_progress` with embedded subagent usage), inline sidechain rows, synthetic
 * API-error rows, compactions (boundary with or without `postTokens`, then a summary row) and
 * metadata rows. Text mixes ASCII, emoji and CJK so multi-byte characters land on chunk edges.
 *
 * The "mess" options add what a real file can hold on disk: a BOM, CRLF endings, blank lines,
 * invalid and non-object lines, and an unterminated or half-written last line.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { Buffer } from "node:buffer";
import { mulberry32 } from "./_rng.ts";

/** Damage to apply to the file bytes. */
export interface TranscriptMess {
  /** Start with a UTF-8 BOM. */
  bom?: boolean;
  /** Share of lines ending in `\r\n` (0..1). */
  crlfRate?: number;
  /** Share of rows followed by a blank or whitespace-only line. */
  blankRate?: number;
  /** Share of rows followed by an invalid or non-object line. */
  invalidRate?: number;
  /** How the file ends: a newline (default), a complete row without newline, or a cut row. */
  lastLine?: "newline" | "none" | "half";
}

/** Options for {@linkcode generateTranscript}. */
export interface GenerateTranscriptOptions {
  /** PRNG seed. Default 1. */
  seed?: number;
  /** Number of user prompts. Default 12. Ignored when `targetBytes` is set. */
  turns?: number;
  /** Keep adding turns until the output has at least this many bytes (UTF-8). */
  targetBytes?: number;
  /** Typical size of a tool result's content in bytes. Default 1500. */
  toolResultBytes?: number;
  /** Every this many turns, a compaction (0: never). Default 0. */
  compactEvery?: number;
  /** An auto compaction before a turn once the context passes this many tokens (0: never). Default 180000. */
  autoCompactAt?: number;
  /** End with a compaction and no assistant row after it. Default false. */
  endWithCompaction?: boolean;
  /** Whether boundaries carry `compactMetadata.postTokens`: always, never, or at random. Default "random". */
  postTokens?: "always" | "never" | "random";
  /** Share of file paths written Windows style (`C:\\…`). Default 0.2. */
  windowsRate?: number;
  /** Model id on assistant rows. Default "claude-opus-4-6". */
  model?: string;
  /** Add inline sidechain, agent_progress and synthetic rows. Default true. */
  noise?: boolean;
  /** On-disk damage. Default none. */
  mess?: TranscriptMess;
}

const TOOLS = [
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Bash",
  "Glob",
  "Grep",
  "Skill",
  "TodoWrite",
  "Task",
];
const WORDS = [
  "alpha",
  "beta",
  "rehydrate",
  "compaction",
  "🚀",
  "日本語",
  "テキスト",
  "café",
  "naïve",
  "𝄞",
  "数据",
  "🙂👍",
  "résumé",
  "hook",
  "state",
];
const FILES = ["src/index.ts", "lib/state.ts", "docs/读我.md", "tests/app.test.ts", "notes/😀.txt", "README.md"];

/** Seeded PRNG (mulberry32): same seed, same sequence, on every runtime. */
export function createRandom(seed: number): () => number {
  return mulberry32(seed);
}

/**
 * Yields the text of a transcript piece by piece (the BOM, then each line with its terminator,
 * and any damage), so callers can join it for a small test or stream it to disk for a big file.
 */
export function* generateTranscript(options: GenerateTranscriptOptions = {}): Generator<string, void, undefined> {
  const rnd = createRandom(options.seed ?? 1);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const hex = (n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(rnd() * 16)];
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const words = (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(pick(WORDS));
    return out.join(" ");
  };
  const mess = options.mess ?? {};
  const model = options.model ?? "claude-opus-4-6";
  const noise = options.noise ?? true;
  const windowsRate = options.windowsRate ?? 0.2;
  const resultBytes = options.toolResultBytes ?? 1500;
  const sessionId = uuid();
  let time = Date.UTC(2026, 1, 12, 9, 0, 0);
  let parent: string | null = null;
  let context = int(12_000, 20_000);
  let bytes = 0;
  let pendingLine: string | undefined;

  const envelope = (type: string, extra: Record<string, unknown>): Record<string, unknown> => {
    time += int(10, 5000);
    const id = uuid();
    const row = {
      parentUuid: parent,
      isSidechain: false,
      userType: "external",
      cwd: "/home/dev/proj",
      sessionId,
      version: "2.1.39",
      gitBranch: "main",
      type,
      ...extra,
      uuid: id,
      timestamp: new Date(time).toISOString(),
    };
    parent = id;
    return row;
  };
  const filePath = () => {
    const f = pick(FILES);
    return rnd() < windowsRate ? `C:\\Users\\dev\\proj\\${f.replaceAll("/", "\\")}` : `/home/dev/proj/${f}`;
  };
  const usage = (input: number, creation: number, read: number, output: number) => ({
    input_tokens: input,
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: creation, ephemeral_1h_input_tokens: 0 },
    output_tokens: output,
    service_tier: "standard",
  });
  const toolInput = (name: string): Record<string, unknown> => {
    switch (name) {
      case "Read":
        return { file_path: filePath() };
      case "Write":
        return { file_path: filePath(), content: words(int(5, 40)) };
      case "Edit":
        return { file_path: filePath(), old_string: words(3), new_string: words(4) };
      case "MultiEdit":
        return { file_path: filePath(), edits: [{ old_string: "a", new_string: "b" }] };
      case "NotebookEdit":
        return { notebook_path: filePath().replace(/\.\w+$/, ".ipynb"), new_source: "print(1)" };
      case "Bash":
        return { command: `cat ${filePath()} | head -20 && ls -la /tmp/build`, description: "Look" };
      case "Glob":
        return { pattern: "**/*.ts", path: filePath().replace(/[\\/][^\\/]*$/, "") };
      case "Grep":
        return { pattern: "TODO", path: "/home/dev/proj/src", output_mode: "content" };
      case "Skill":
        return { skill: pick(["pdf", "frontend-design", "数据-skill"]) };
      case "TodoWrite":
        return {
          todos: [
            { content: words(3), status: "completed", activeForm: "Doing it" },
            { content: words(4), status: pick(["pending", "in_progress"]), activeForm: "Doing more" },
          ],
        };
      default:
        return { description: "Explore", prompt: words(10), subagent_type: "Explore" };
    }
  };
  const bigText = (n: number) => {
    let s = "";
    while (s.length < n) s += `${words(8)} ${hex(16)}\n`;
    return s;
  };

  function* emit(row: unknown): Generator<string> {
    if (pendingLine !== undefined) yield* flushLine(pendingLine);
    pendingLine = JSON.stringify(row);
  }
  function* flushLine(line: string): Generator<string> {
    const crlf = (mess.crlfRate ?? 0) > 0 && rnd() < (mess.crlfRate ?? 0);
    const text = line + (crlf ? "\r\n" : "\n");
    bytes += Buffer.byteLength(text);
    yield text;
    if ((mess.blankRate ?? 0) > 0 && rnd() < (mess.blankRate ?? 0)) yield pick(["\n", "   \n", "\r\n", "\t\n"]);
    if ((mess.invalidRate ?? 0) > 0 && rnd() < (mess.invalidRate ?? 0)) {
      yield pick([
        '{"type":"assistant","message":{"usage":{"input_tokens":999999\n',
        "not json at all 🚀\n",
        "[1,2,3]\n",
        "42\n",
        '"just a string"\n',
        "null\n",
        "{broken: true}\n",
        `${line.slice(0, Math.floor(line.length / 2))}\n`,
      ]);
    }
  }

  function* compaction(trigger: string): Generator<string> {
    if (trigger === "manual") {
      yield* emit(envelope("user", { message: { role: "user", content: "<command-name>/compact</command-name>" } }));
    }
    const logical: string | null = parent;
    parent = null;
    const post = int(3000, 9000);
    const wantPost = options.postTokens === "always" || (options.postTokens !== "never" && rnd() < 0.5);
    const meta: Record<string, unknown> = { trigger, preTokens: context };
    if (wantPost) meta.postTokens = post;
    yield* emit(envelope("system", {
      subtype: "compact_boundary",
      content: "Conversation compacted",
      isMeta: false,
      level: "info",
      logicalParentUuid: logical,
      compactMetadata: meta,
    }));
    yield* emit(envelope("user", {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: {
        role: "user",
        content: `This session is being continued from a previous conversation. ${bigText(800)}`,
      },
    }));
    yield* emit(envelope("progress", {
      data: {
        type: "hook_progress",
        hookEvent: "SessionStart",
        hookName: "SessionStart:compact",
        command: "rehydrate",
      },
      parentToolUseID: "",
      toolUseID: "",
    }));
    context = post + int(500, 3000);
  }

  if (mess.bom) {
    bytes += 3;
    yield "\uFEFF";
  }
  const compactEvery = options.compactEvery ?? 0;
  const autoCompactAt = options.autoCompactAt ?? 180_000;
  const turns = options.targetBytes !== undefined ? Infinity : options.turns ?? 12;
  for (let turn = 0; turn < turns; turn++) {
    if (options.targetBytes !== undefined && bytes >= options.targetBytes) break;
    if (compactEvery > 0 && turn > 0 && turn % compactEvery === 0) yield* compaction(pick(["auto", "manual"]));
    else if (autoCompactAt > 0 && context > autoCompactAt) yield* compaction("auto");
    const prompt = envelope("user", { message: { role: "user", content: `${words(int(3, 30))} ?` } });
    yield* emit({
      type: "file-history-snapshot",
      messageId: prompt.uuid,
      snapshot: { messageId: prompt.uuid, trackedFileBackups: {}, timestamp: prompt.timestamp },
      isSnapshotUpdate: false,
    });
    yield* emit({
      type: "queue-operation",
      operation: "enqueue",
      timestamp: prompt.timestamp,
      sessionId,
      content: "x",
    });
    yield* emit(prompt);
    const steps = int(1, 4);
    for (let step = 0; step < steps; step++) {
      const msgId = `msg_01${hex(22)}`;
      const requestId = `req_011${hex(20)}`;
      const input = int(1, 10);
      const creation = int(50, 3000);
      const read = context;
      context += creation;
      const blocks: Record<string, unknown>[] = [];
      if (rnd() < 0.4) blocks.push({ type: "thinking", thinking: words(20), signature: hex(40) });
      blocks.push({ type: "text", text: words(int(5, 60)) });
      const isLast = step === steps - 1;
      const calls: { id: string; name: string }[] = [];
      if (!isLast || rnd() < 0.3) {
        const n = int(1, 3);
        for (let k = 0; k < n; k++) {
          const name = pick(TOOLS);
          const id = `toolu_01${hex(22)}`;
          calls.push({ id, name });
          blocks.push({ type: "tool_use", id, name, input: toolInput(name) });
        }
      }
      let output = int(1, 20);
      for (const block of blocks) {
        output += int(5, 400);
        yield* emit(envelope("assistant", {
          message: {
            model,
            id: msgId,
            type: "message",
            role: "assistant",
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage: usage(input, creation, read, output),
          },
          requestId,
        }));
      }
      for (const call of calls) {
        const assistantUuid: string | null = parent;
        if (call.name === "Bash" || rnd() < 0.3) {
          yield* emit(envelope("progress", {
            data: { type: "bash_progress", output: words(5), elapsedTimeSeconds: 2 },
            toolUseID: call.id,
            parentToolUseID: call.id,
          }));
        }
        if (noise && call.name === "Task") {
          for (let k = 0; k < 2; k++) {
            yield* emit(envelope("progress", {
              data: {
                type: "agent_progress",
                message: {
                  type: "assistant",
                  message: {
                    model: "claude-haiku-4-5",
                    id: `msg_01${hex(22)}`,
                    role: "assistant",
                    content: [{ type: "text", text: words(10) }],
                    usage: usage(3, 90_000 + int(0, 9999), 120_000, 50),
                  },
                },
              },
              toolUseID: call.id,
              parentToolUseID: call.id,
            }));
          }
        }
        const content = bigText(Math.floor(resultBytes * (0.2 + rnd() * 1.6)));
        yield* emit(envelope("user", {
          message: { role: "user", content: [{ tool_use_id: call.id, type: "tool_result", content }] },
          toolUseResult: call.name === "Read"
            ? { type: "text", file: { filePath: "/home/dev/proj/x", content, numLines: 10 } }
            : { stdout: safeSlice(content, 200), stderr: "", interrupted: false },
          sourceToolAssistantUUID: assistantUuid,
        }));
        context += Math.floor(content.length / 4);
      }
    }
    if (noise && rnd() < 0.2) {
      const sideParent: string | null = parent;
      yield* emit({
        ...envelope("assistant", {
          message: {
            model: "claude-haiku-4-5",
            id: `msg_01${hex(22)}`,
            role: "assistant",
            content: [{ type: "text", text: "sidechain 🙂" }],
            usage: usage(5, 150_000, 100_000, 20),
          },
        }),
        isSidechain: true,
      });
      parent = sideParent;
    }
    if (noise && rnd() < 0.15) {
      yield* emit(envelope("assistant", {
        message: {
          id: uuid(),
          model: "<synthetic>",
          role: "assistant",
          type: "message",
          content: [{ type: "text", text: "API Error: 529 overloaded" }],
          usage: usage(0, 0, 0, 0),
        },
        isApiErrorMessage: true,
        error: "unknown",
      }));
    }
    yield* emit(envelope("system", { subtype: "turn_duration", durationMs: int(1000, 90_000), isMeta: false }));
    yield* emit({ type: "last-prompt", lastPrompt: "x", leafUuid: parent, sessionId });
  }
  if (options.endWithCompaction) yield* compaction("auto");
  if (pendingLine !== undefined) {
    const last = pendingLine;
    pendingLine = undefined;
    if (mess.lastLine === "none") {
      yield last;
    } else if (mess.lastLine === "half") {
      yield* flushLine(last);
      yield last.slice(0, int(1, last.length - 2));
    } else {
      yield* flushLine(last);
    }
  }
}

/** The first `n` UTF-16 units of `s`, without splitting a surrogate pair. */
function safeSlice(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/** The whole generated transcript as one string. */
export function generateTranscriptText(options: GenerateTranscriptOptions = {}): string {
  let out = "";
  for (const piece of generateTranscript(options)) out += piece;
  return out;
}

/** Streams a generated transcript to `path`; returns the bytes written. */
export function writeTranscript(path: string, options: GenerateTranscriptOptions = {}): number {
  const fd = openSync(path, "w");
  let written = 0;
  let buffer: string[] = [];
  let size = 0;
  try {
    for (const piece of generateTranscript(options)) {
      buffer.push(piece);
      size += piece.length;
      if (size > 1 << 20) {
        written += writeSync(fd, buffer.join(""));
        buffer = [];
        size = 0;
      }
    }
    if (buffer.length > 0) written += writeSync(fd, buffer.join(""));
  } finally {
    closeSync(fd);
  }
  return written;
}
