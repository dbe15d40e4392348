/**
 * A realistic Claude Code transcript of a session in the ordinary repository of `repo.ts` (issue
 * 23): typed user requests, assistant rows one per content block sharing `message.id` and usage
 * (thinking, text, tool calls), `Read`/`Edit`/`Write`/`Grep`/`Glob`/`Bash` calls with their
 * results (Read results twice, as `toolUseResult` too; Edit results with the client's patch
 * record), a task list kept with `TaskCreate`/`TaskUpdate` (results as the client writes them) and
 * now and then a `TodoWrite` list, file-history snapshots of the edited files, hook progress rows
 * and a compaction every 3 MB. The work settles on {@linkcode REPO_ACTIVE_FILE} for the last 30 %;
 * the file ends with a typed request and one assistant row of exactly
 * {@linkcode FINAL_CONTEXT_TOKENS} context tokens (72 % of a 200K window), as `transcript.ts` does.
 */
import { REPO_ACTIVE_FILE, REPO_SOURCES, REPO_TESTS } from "./repo.ts";
import { createRandom } from "./random.ts";
import { rowFactory, usage, writeStream } from "./rows.ts";
import { FINAL_CONTEXT_TOKENS, MODEL } from "./transcript.ts";

export { FINAL_CONTEXT_TOKENS };

/** Options for {@linkcode repoTranscriptLines}. */
export interface RepoTranscriptOptions {
  /** Stop adding turns once this many bytes (UTF-16 units, near enough) are out. */
  targetBytes: number;
  /** Absolute path of the repository the session runs in. */
  repo: string;
  /** The session id on every row. */
  sessionId: string;
  /** PRNG seed. Default 1. */
  seed?: number;
}

/** The user's last typed request in every generated session. */
export const REPO_LAST_REQUEST = `Now add a regression test for the rounding in ${REPO_ACTIVE_FILE}`;

const WORDS = [
  "the",
  "total",
  "rounds",
  "invoice",
  "cents",
  "float",
  "drift",
  "test",
  "fails",
  "fixture",
  "résumé",
  "日本語",
  "🚀",
  "module",
  "export",
  "schema",
  "cache",
  "retry",
  "error",
  "parse",
  "client",
  "query",
  "async",
  "return",
  // Real code, logs and listings say "task" all the time: in the development set's sessions 80 %
  // of the tool results' bytes hold a word the session snapshot's task and edit lines are found
  // by (docs/bench-notes.md, "Real sessions parse far more than the bench transcript").
  "task",
];
const REQUESTS = [
  "The invoice totals are off by a cent sometimes. Find out why.",
  "Why does the reports module time out on big customers?",
  "Add retry with backoff to the api client",
  "Run the tests and fix what fails",
  "Refactor the cache so it has one expiry rule",
  "Can you check the auth errors in the logs?",
  "Please keep the public API of src/db/client.ts as it is",
];

/**
 * Yields the transcript line by line (each with its `\n`).
 *
 * @example
 * ```ts
 * for (const line of repoTranscriptLines({ targetBytes: 1e6, repo: "/r", sessionId: "s" })) out.push(line);
 * ```
 */
export function* repoTranscriptLines(options: RepoTranscriptOptions): Generator<string, void, undefined> {
  const rnd = createRandom(options.seed ?? 1);
  const repo = options.repo;
  const target = options.targetBytes;
  const compactEvery = Math.min(3_000_000, Math.floor(target * 0.4));
  const settleAt = target * 0.7;
  const rows = rowFactory(rnd, {
    cwd: repo,
    sessionId: options.sessionId,
    gitBranch: "fix/invoice-rounding",
    start: Date.UTC(2026, 10, 3, 8, 0, 0),
  });
  const { line, envelope } = rows;
  let context = 24_000;
  let nextTask = 1;
  const open: { id: string; subject: string; status: string }[] = [];
  const words = (n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(rnd.pick(WORDS));
    return out.join(" ");
  };
  const body = (lines: number): string => {
    const out: string[] = [];
    for (let i = 1; i <= lines; i++) {
      out.push(`${String(i).padStart(6)}\t  const v${rnd.hex(4)} = total + Math.round(price * 100); // ${words(4)}`);
    }
    return out.join("\n");
  };
  let focus = rnd.pick(REPO_SOURCES);
  const file = (): string => {
    const r = rnd.next();
    if (r < 0.5) return focus;
    if (r < 0.8) return rnd.pick(REPO_SOURCES);
    return rnd.pick(REPO_TESTS);
  };
  const edited = new Set<string>();

  /** One tool call: its input, the result text and the client's `toolUseResult`. */
  const tool = (name: string): { input: Record<string, unknown>; text: string; detail: unknown } => {
    switch (name) {
      case "Read": {
        const f = `${repo}/${file()}`;
        const text = body(rnd.int(20, 400));
        return {
          input: { file_path: f },
          text,
          detail: { type: "text", file: { filePath: f, content: text, numLines: 40, startLine: 1, totalLines: 40 } },
        };
      }
      case "Edit": {
        const f = `${repo}/${rnd.next() < 0.7 ? focus : file()}`;
        edited.add(f);
        const oldString = `total += ${words(3)};`;
        const newString = `total += Math.round(${words(3)} * 100);`;
        return {
          input: { file_path: f, old_string: oldString, new_string: newString, replace_all: false },
          text: `The file ${f} has been updated. Here's the result of running \`cat -n\` on a snippet:\n${body(12)}`,
          detail: {
            filePath: f,
            oldString,
            newString,
            originalFile: null,
            structuredPatch: [{ oldStart: 12, oldLines: 1, newStart: 12, newLines: 1, lines: [`-${oldString}`] }],
            userModified: false,
            replaceAll: false,
          },
        };
      }
      case "Write": {
        const f = `${repo}/${rnd.pick(REPO_TESTS)}`;
        edited.add(f);
        return {
          input: { file_path: f, content: body(rnd.int(10, 80)) },
          text: `File created successfully at: ${f}`,
          detail: { type: "create", filePath: f, content: "", structuredPatch: [] },
        };
      }
      case "Grep": {
        const hits: string[] = [];
        for (let i = rnd.int(1, 40); i > 0; i--) {
          hits.push(`${repo}/${rnd.pick(REPO_SOURCES)}:${rnd.int(1, 300)}:${words(6)}`);
        }
        return {
          input: {
            pattern: rnd.pick(["formatTotal", "Math.round", "retry", "TODO"]),
            path: repo,
            output_mode: "content",
          },
          text: hits.join("\n"),
          detail: {
            mode: "content",
            numFiles: hits.length,
            filenames: [],
            content: hits.join("\n"),
            numLines: hits.length,
          },
        };
      }
      case "Glob":
        return {
          input: { pattern: "src/**/*.ts" },
          text: REPO_SOURCES.slice(0, rnd.int(5, 40)).map((f) => `${repo}/${f}`).join("\n"),
          detail: { filenames: [], durationMs: 3, numFiles: 12, truncated: false },
        };
      case "Bash": {
        const out = body(rnd.int(5, 200));
        return {
          input: { command: rnd.pick(["npm test", "git diff --stat", "node --test test/billing"]), description: "Run" },
          text: out,
          detail: { stdout: out, stderr: "", interrupted: false, isImage: false },
        };
      }
      case "TaskCreate": {
        const id = String(nextTask++);
        const subject = `${rnd.pick(["Fix", "Test", "Refactor", "Check"])} ${words(4)} in ${focus}`;
        open.push({ id, subject, status: "pending" });
        return {
          input: { subject, description: words(rnd.int(8, 40)), activeForm: `Working on ${words(2)}` },
          text: `Task #${id} created successfully: ${subject}`,
          detail: { task: { id, subject } },
        };
      }
      case "TaskUpdate": {
        const t = open.length ? rnd.pick(open) : { id: "1", subject: "", status: "pending" };
        const to = t.status === "pending" ? "in_progress" : "completed";
        const from = t.status;
        t.status = to;
        if (to === "completed") open.splice(open.indexOf(t), 1);
        return {
          input: { taskId: t.id, status: to },
          text: `Updated task #${t.id} status`,
          detail: { success: true, taskId: t.id, updatedFields: ["status"], statusChange: { from, to } },
        };
      }
      default: {
        const todos = [
          { content: `Fix the rounding in ${focus}`, status: "in_progress", activeForm: "Fixing the rounding" },
          { content: `Run the tests of ${focus.split("/")[1]}`, status: "pending", activeForm: "Running the tests" },
          { content: words(6), status: "completed", activeForm: "Working" },
        ];
        return {
          input: { todos },
          text:
            "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.",
          detail: { oldTodos: [], newTodos: todos },
        };
      }
    }
  };
  const TOOLS = [
    "Read",
    "Read",
    "Read",
    "Read",
    "Edit",
    "Edit",
    "Edit",
    "Write",
    "Grep",
    "Grep",
    "Glob",
    "Bash",
    "Bash",
    "TaskCreate",
    "TaskUpdate",
    "TaskUpdate",
    "TodoWrite",
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
        content: `This session is being continued from a previous conversation that ran out of context. ${body(60)}`,
      },
    }));
    context = post;
    rows.sinceCompaction = 0;
  }

  let turn = 0;
  while (rows.bytes < target) {
    turn++;
    if (rows.bytes >= settleAt) focus = REPO_ACTIVE_FILE;
    else if (turn % 12 === 0) focus = rnd.pick(REPO_SOURCES);
    if (rows.sinceCompaction >= compactEvery && rows.bytes < target - compactEvery / 2) yield* compaction();
    const prompt = envelope("user", {
      message: { role: "user", content: rnd.next() < 0.5 ? rnd.pick(REQUESTS) : `${words(rnd.int(4, 30))}?` },
    });
    const backups: Record<string, unknown> = {};
    for (const f of [...edited].slice(-6)) {
      backups[f.slice(repo.length + 1)] = {
        backupFileName: `${rnd.hex(16)}@v2`,
        version: 2,
        backupTime: prompt.timestamp,
      };
    }
    yield line({
      type: "file-history-snapshot",
      messageId: prompt.uuid,
      snapshot: { messageId: prompt.uuid, trackedFileBackups: backups, timestamp: prompt.timestamp },
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
      if (rnd.next() < 0.4) {
        blocks.push({ type: "thinking", thinking: words(rnd.int(20, 200)), signature: rnd.hex(64) });
      }
      blocks.push({ type: "text", text: words(rnd.int(5, 60)) });
      const calls: { id: string; name: string; result: ReturnType<typeof tool> }[] = [];
      if (step < steps - 1 || rnd.next() < 0.3) {
        for (let k = rnd.int(1, 3); k > 0; k--) {
          const name = rnd.pick(TOOLS);
          const id = `toolu_01${rnd.hex(22)}`;
          const result = tool(name);
          calls.push({ id, name, result });
          blocks.push({ type: "tool_use", id, name, input: result.input });
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
        yield line(envelope("user", {
          message: {
            role: "user",
            content: [{ tool_use_id: call.id, type: "tool_result", content: call.result.text }],
          },
          toolUseResult: call.result.detail,
          sourceToolAssistantUUID: caller,
        }));
        context += Math.floor(call.result.text.length / 40);
      }
    }
    yield line(envelope("system", { subtype: "turn_duration", durationMs: rnd.int(1000, 90_000), isMeta: false }));
  }

  // The ending every reader must agree on: one typed request, one answer with a known usage.
  yield line(envelope("user", { message: { role: "user", content: REPO_LAST_REQUEST } }));
  yield line(envelope("assistant", {
    message: {
      model: MODEL,
      id: `msg_01${rnd.hex(22)}`,
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: `I'll finish ${REPO_ACTIVE_FILE} first, then add the test.` }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { ...usage(rnd.int(1, 10), 2_000, 142_000, 311), input_tokens: 3 },
    },
    requestId: `req_011${rnd.hex(20)}`,
  }));
  yield line(envelope("system", { subtype: "turn_duration", durationMs: 4200, isMeta: false }));
}

/**
 * Streams a repository transcript to `path` in ~4 MB writes; returns the bytes written.
 *
 * @example
 * ```ts
 * writeRepoTranscript("/tmp/t.jsonl", { targetBytes: 10e6, repo: "/r", sessionId: "s" });
 * ```
 */
export function writeRepoTranscript(path: string, options: RepoTranscriptOptions): number {
  return writeStream(path, repoTranscriptLines(options));
}
