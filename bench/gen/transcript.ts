/**
 * Benchmark transcripts: realistic Claude Code session JSONL of any size, streamed to disk (a
 * 500 MB file never exists as one string). Rows follow the real transcripts in
 * tests/fixtures/claude-code-2.1.197/transcripts and tests/fixtures/public, like
 * tests/unit/_transcript_gen.ts, but every tool call points into the benchmark workspace so the
 * hooks have a project to find:
 *
 * - user prompts and `file-history-snapshot` rows; assistant rows one per content block (thinking,
 *   text, tool_use) sharing `message.id` and repeating the usage;
 * - tool calls (Read, Edit, Write, MultiEdit, Bash, Grep, Glob, Skill, TodoWrite, Task) with
 *   absolute paths into `02-projects/<id>/...`, the system files and the skills; large tool results
 *   (0.5 to 30 KB, Read results twice: in the message and in `toolUseResult`, as the client does);
 * - `progress` rows (hook_progress, bash_progress, agent_progress with the subagent's own usage),
 *   inline sidechain rows, synthetic API-error rows, `turn_duration` rows;
 * - compactions (boundary with `compactMetadata`, summary row, SessionStart:compact progress).
 *
 * The work drifts between projects and settles on {@linkcode ACTIVE_PROJECT} for the last 30 % of
 * the file. The file ends with a prompt and one assistant row whose usage is exactly
 * {@linkcode FINAL_CONTEXT_TOKENS} (72 % of a 200K window), so every hook and peer that measures
 * the context fill must arrive at the same number.
 */
import { ACTIVE_PROJECT, PROJECTS } from "./workspace.ts";
import { createRandom, type Random } from "./random.ts";
import { rowFactory, usage, writeStream } from "./rows.ts";

/** Context tokens of the last assistant row: 3 + 2,000 + 142,000 = 72.0 % of 200,000. */
export const FINAL_CONTEXT_TOKENS = 144_003;
/** The model on assistant rows (a 200K window). */
export const MODEL = "claude-opus-4-6";

/** Options for {@linkcode transcriptLines}. */
export interface TranscriptOptions {
  /** Stop adding turns once this many bytes (UTF-16 units, near enough) are out. */
  targetBytes: number;
  /** Absolute path of the workspace the session runs in. */
  workspace: string;
  /** The session id on every row. */
  sessionId: string;
  /** PRNG seed. Default 1. */
  seed?: number;
  /** A compaction every this many bytes. Default min(3 MB, 40 % of the target). */
  compactEveryBytes?: number;
}

const WORDS = [
  "the",
  "hook",
  "reads",
  "state",
  "project",
  "manifest",
  "résumé",
  "naïve",
  "café",
  "日本語",
  "テスト",
  "🚀",
  "✅",
  "compaction",
  "context",
  "window",
  "tokens",
  "steps",
  "plan",
  "overview",
  "deploy",
  "cache",
  "index",
  "query",
  "function",
  "return",
  "const",
  "await",
  "error",
  "retry",
  "queue",
  "schema",
  "field",
  "value",
  "数据",
];
const PROJECT_FILES = [
  "01-planning/04-steps.md",
  "01-planning/03-plan.md",
  "01-planning/01-overview.md",
  "01-planning/resume-context.md",
  "01-planning/02-discovery.md",
  "03-working/notes.md",
  "03-working/src/main.ts",
  "03-working/src/main.test.ts",
];
const SYSTEM_FILES = [
  "00-system/core/orchestrator.md",
  "00-system/system-map.md",
  "00-system/skills/projects/execute-project/SKILL.md",
  "01-memory/goals.md",
  "CLAUDE.md",
];

function textPool(rnd: Random): { small: string[]; big: string[] } {
  const make = (bytes: number): string => {
    const lines: string[] = [];
    let size = 0;
    let n = 1;
    while (size < bytes) {
      const words: string[] = [];
      for (let i = rnd.int(4, 14); i > 0; i--) words.push(rnd.pick(WORDS));
      const line = `${String(n++).padStart(5)}\t${rnd.next() < 0.3 ? "  " : ""}${words.join(" ")} ${rnd.hex(12)}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join("\n");
  };
  const small: string[] = [];
  const big: string[] = [];
  for (let i = 0; i < 48; i++) small.push(make(rnd.int(60, 600)));
  for (let i = 0; i < 64; i++) big.push(make(Math.floor(500 * Math.pow(60, rnd.next()))));
  return { small, big };
}

/**
 * Yields the transcript line by line (each with its `\n`).
 *
 * @example
 * ```ts
 * for (const line of transcriptLines({ targetBytes: 1e6, workspace: "/w", sessionId: "s" })) out.push(line);
 * ```
 */
export function* transcriptLines(options: TranscriptOptions): Generator<string, void, undefined> {
  const rnd = createRandom(options.seed ?? 1);
  const pool = textPool(rnd);
  const ws = options.workspace;
  const target = options.targetBytes;
  const compactEvery = options.compactEveryBytes ?? Math.min(3_000_000, Math.floor(target * 0.4));
  const settleAt = target * 0.7;
  const sessionId = options.sessionId;
  const rows = rowFactory(rnd, { cwd: ws, sessionId, gitBranch: "main", start: Date.UTC(2026, 10, 2, 8, 0, 0) });
  const { line, envelope } = rows;
  let context = 24_000;
  let project = rnd.pick(PROJECTS);
  const words = (n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(rnd.pick(WORDS));
    return out.join(" ");
  };
  const projectFile = (): string => `${ws}/02-projects/${project}/${rnd.pick(PROJECT_FILES)}`;
  const anyFile = (): string => {
    const r = rnd.next();
    if (r < 0.75) return projectFile();
    if (r < 0.9) return `${ws}/${rnd.pick(SYSTEM_FILES)}`;
    if (r < 0.95) return `${ws}/02-projects/${rnd.pick(PROJECTS)}/01-planning/04-steps.md`;
    return rnd.pick(["/etc/hosts", "/usr/share/doc/bash/README", `/home/dev/.bashrc`]);
  };
  const toolInput = (name: string): Record<string, unknown> => {
    switch (name) {
      case "Read":
        return { file_path: anyFile() };
      case "Write":
        return { file_path: projectFile(), content: rnd.pick(pool.small) };
      case "Edit":
        return { file_path: projectFile(), old_string: words(4), new_string: words(5), replace_all: false };
      case "MultiEdit":
        return { file_path: projectFile(), edits: [{ old_string: words(2), new_string: words(3) }] };
      case "Bash":
        return {
          command: `cd ${ws}/02-projects/${project} && grep -rn "TODO" 03-working | head -40`,
          description: "Find open TODOs",
        };
      case "Grep":
        return { pattern: "current_task", path: `${ws}/02-projects/${project}`, output_mode: "content" };
      case "Glob":
        return { pattern: "**/*.md", path: `${ws}/02-projects/${project}/01-planning` };
      case "Skill":
        return { skill: rnd.pick(["execute-project", "plan-project", "mental-models"]) };
      case "TodoWrite":
        return {
          todos: [
            { content: `Update ${project}/01-planning/04-steps.md`, status: "completed", activeForm: "Updating steps" },
            {
              content: `Edit 03-working/src/main.ts in ${project}`,
              status: "in_progress",
              activeForm: "Editing main.ts",
            },
            { content: words(5), status: "pending", activeForm: "Working" },
          ],
        };
      default:
        return {
          description: "Explore the project",
          prompt: `Look at ${ws}/02-projects/${project} and ${words(12)}`,
          subagent_type: "Explore",
        };
    }
  };
  const TOOL_WEIGHTS: readonly string[] = [
    "Read",
    "Read",
    "Read",
    "Read",
    "Edit",
    "Edit",
    "Edit",
    "Write",
    "MultiEdit",
    "Bash",
    "Bash",
    "Grep",
    "Glob",
    "Skill",
    "TodoWrite",
    "Task",
  ];

  function* compaction(): Generator<string> {
    const logical = rows.parent;
    rows.parent = null;
    const post = rnd.int(18_000, 40_000);
    yield line(envelope("system", {
      subtype: "compact_boundary",
      content: "Conversation compacted",
      isMeta: false,
      level: "info",
      logicalParentUuid: logical,
      compactMetadata: { trigger: "auto", preTokens: context, postTokens: post },
    }));
    yield line(envelope("user", {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: {
        role: "user",
        content: `This session is being continued from a previous conversation that ran out of context. ${
          rnd.pick(pool.big)
        }`,
      },
    }));
    yield line(envelope("progress", {
      data: {
        type: "hook_progress",
        hookEvent: "SessionStart",
        hookName: "SessionStart:compact",
        command: "rehydrate session-start",
      },
      parentToolUseID: "",
      toolUseID: "",
    }));
    context = post;
    rows.sinceCompaction = 0;
  }

  let turn = 0;
  while (rows.bytes < target) {
    turn++;
    if (rows.bytes >= settleAt) project = ACTIVE_PROJECT;
    else if (turn % 15 === 0) project = rnd.pick(PROJECTS);
    if (rows.sinceCompaction >= compactEvery && rows.bytes < target - compactEvery / 2) yield* compaction();
    const prompt = envelope("user", { message: { role: "user", content: `${words(rnd.int(4, 30))} in ${project}?` } });
    yield line({
      type: "file-history-snapshot",
      messageId: prompt.uuid,
      snapshot: { messageId: prompt.uuid, trackedFileBackups: {}, timestamp: prompt.timestamp },
      isSnapshotUpdate: false,
    });
    yield line(prompt);
    const steps = rnd.int(1, 5);
    for (let step = 0; step < steps; step++) {
      const msgId = `msg_01${rnd.hex(22)}`;
      const requestId = `req_011${rnd.hex(20)}`;
      const creation = rnd.int(200, 4000);
      const read = Math.min(context, 190_000);
      context += creation;
      const blocks: Record<string, unknown>[] = [];
      if (rnd.next() < 0.4) blocks.push({ type: "thinking", thinking: rnd.pick(pool.small), signature: rnd.hex(64) });
      blocks.push({ type: "text", text: words(rnd.int(5, 60)) });
      const calls: { id: string; name: string }[] = [];
      if (step < steps - 1 || rnd.next() < 0.3) {
        for (let k = rnd.int(1, 3); k > 0; k--) {
          const name = rnd.pick(TOOL_WEIGHTS);
          const id = `toolu_01${rnd.hex(22)}`;
          calls.push({ id, name });
          blocks.push({ type: "tool_use", id, name, input: toolInput(name) });
        }
      }
      let output = rnd.int(1, 20);
      for (const block of blocks) {
        output += rnd.int(5, 400);
        yield line(envelope("assistant", {
          message: {
            model: MODEL,
            id: msgId,
            type: "message",
            role: "assistant",
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage: usage(rnd.int(1, 10), creation, read, output),
          },
          requestId,
        }));
      }
      for (const call of calls) {
        const caller = rows.parent;
        yield line(envelope("progress", {
          data: {
            type: "hook_progress",
            hookEvent: "PreToolUse",
            hookName: `PreToolUse:${call.name}`,
            command: "rehydrate pre-tool-use",
          },
          parentToolUseID: call.id,
          toolUseID: call.id,
        }));
        if (call.name === "Bash") {
          yield line(
            envelope("progress", {
              data: { type: "bash_progress", output: words(6), elapsedTimeSeconds: 2 },
              toolUseID: call.id,
              parentToolUseID: call.id,
            }),
          );
        }
        if (call.name === "Task") {
          for (let k = 0; k < 3; k++) {
            yield line(envelope("progress", {
              data: {
                type: "agent_progress",
                message: {
                  type: "assistant",
                  message: {
                    model: "claude-haiku-4-5",
                    id: `msg_01${rnd.hex(22)}`,
                    role: "assistant",
                    content: [{ type: "text", text: words(12) }],
                    usage: usage(3, 40_000 + rnd.int(0, 9999), 120_000, 50),
                  },
                },
              },
              toolUseID: call.id,
              parentToolUseID: call.id,
            }));
          }
        }
        const content = call.name === "Read" || call.name === "Bash" || call.name === "Grep" || call.name === "Task"
          ? rnd.pick(pool.big)
          : rnd.pick(pool.small);
        const file = (blocks.find((b) => b.id === call.id)?.input as { file_path?: string } | undefined)?.file_path;
        yield line(envelope("user", {
          message: { role: "user", content: [{ tool_use_id: call.id, type: "tool_result", content }] },
          toolUseResult: call.name === "Read"
            ? { type: "text", file: { filePath: file, content, numLines: 40, startLine: 1, totalLines: 40 } }
            : { stdout: content.slice(0, 200), stderr: "", interrupted: false, isImage: false },
          sourceToolAssistantUUID: caller,
        }));
        context += Math.floor(content.length / 40);
      }
    }
    if (rnd.next() < 0.1) {
      yield line(envelope("assistant", {
        message: {
          model: "claude-haiku-4-5",
          id: `msg_01${rnd.hex(22)}`,
          role: "assistant",
          content: [{ type: "text", text: `sidechain: ${words(10)}` }],
          usage: usage(5, 150_000, 30_000, 20),
        },
      }, true));
    }
    if (rnd.next() < 0.03) {
      yield line(envelope("assistant", {
        message: {
          id: rnd.uuid(),
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
    yield line(envelope("system", { subtype: "turn_duration", durationMs: rnd.int(1000, 90_000), isMeta: false }));
  }

  // The ending every reader must agree on: one prompt, one answer with a known usage.
  project = ACTIVE_PROJECT;
  yield line(
    envelope("user", { message: { role: "user", content: `Continue with the next task of ${ACTIVE_PROJECT}.` } }),
  );
  yield line(envelope("assistant", {
    message: {
      model: MODEL,
      id: `msg_01${rnd.hex(22)}`,
      type: "message",
      role: "assistant",
      content: [{
        type: "text",
        text: `Working on ${ACTIVE_PROJECT}: next is the first unchecked task in 04-steps.md.`,
      }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: usage(3, 2_000, 142_000, 311),
    },
    requestId: `req_011${rnd.hex(20)}`,
  }));
  yield line(envelope("system", { subtype: "turn_duration", durationMs: 4200, isMeta: false }));
}

/**
 * Streams a transcript to `path` in ~4 MB writes; returns the bytes written.
 *
 * @example
 * ```ts
 * writeTranscript("/tmp/t.jsonl", { targetBytes: 10e6, workspace: "/w", sessionId: "s" });
 * ```
 */
export function writeTranscript(path: string, options: TranscriptOptions): number {
  return writeStream(path, transcriptLines(options));
}
