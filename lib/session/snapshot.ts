import type { Buffer } from "node:buffer";
import type { TranscriptRow } from "../transcript/transcript_row.ts";
import {
  containsAny,
  needle,
  parseRow,
  positiveInt,
  type ReverseByteLines,
  reverseLines,
  type ReverseLinesStats,
} from "../transcript/lines.ts";
import { DEFAULT_SCAN_BUDGET_BYTES, DEFAULT_SCAN_CHUNK_BYTES } from "../transcript/scan_transcript.ts";
import { isCompactBoundaryRow } from "../transcript/rows.ts";
import { toolResultLineIds } from "../transcript/tool_result_line.ts";
import { isInertLine } from "../transcript/inert_line.ts";
import { transcriptOriginCwd } from "../transcript/origin_cwd.ts";
import { spellsNone } from "../transcript/json_escapes.ts";
import { rowToolCalls } from "../transcript/tool_calls.ts";
import { detectWorkspace, type LineObserver } from "../detect/workspace.ts";
import { redact } from "../redact/redact.ts";
import { activityMark, attachedFile, isActivityRow, isMarkedRow } from "./_activity.ts";
import { safeFilePath, shownFileList } from "./_paths.ts";
import { resultText, type ToolResult, toolResults } from "./_results.ts";
import { hasControl } from "./_text.ts";
import { type EditedFile, editedFileTracker } from "./edited_files.ts";
import { type GitBranch, gitBranch } from "./git_branch.ts";
import { type SessionTask, type SessionTaskSource, taskTracker } from "./tasks.ts";
import { type UserRequest, userRequestTracker } from "./user_requests.ts";
import { commandTracker, type SessionCommand } from "./commands.ts";
import { planFileTracker } from "./plan_file.ts";
import { constraintTracker } from "./constraints.ts";
import { clientTaskList } from "./task_files.ts";
import { cutMiddle } from "../redact/cut_middle.ts";
import { clamp, safeGit } from "./_snapshot_parts.ts";

/** Which hook built a snapshot. */
export type SnapshotBuiltBy = "pre-compact" | "session-start" | "checkpoint";

/** Where the snapshot's reading of the transcript ended. */
export interface SnapshotTranscript {
  /** Uuid of the newest activity row read (assistant row, tool result or typed message). */
  last_uuid?: string;
  /** Its timestamp: a transcript with newer activity makes the snapshot stale. */
  last_timestamp?: string;
  /** Bytes read, from the end. */
  bytes_read: number;
  /** True when the whole file fit the budget. */
  reached_start: boolean;
  /**
   * `created_at` of the earlier snapshot this one continues: the pass stopped at that snapshot's
   * newest activity row, and the tasks and edited files before it are that snapshot's.
   */
  continues?: string;
}

/** One file of the working set, as kept in the snapshot. */
export interface SnapshotWorkingSetItem {
  path: string;
  /** Why it is there, strongest first (`edited`, `read`, `user-request`, …). */
  reasons: string[];
}

/**
 * What the everyday layer keeps of a session across a compaction
 * (`schemas/session_snapshot.v1.json`): kept in the private state directory, never in the
 * repository. Every text in it is redacted and capped.
 */
export interface SessionSnapshot {
  schema_version: 1;
  session_id: string;
  /** ISO time it was built. */
  created_at: string;
  built_by: SnapshotBuiltBy;
  /** The PreCompact trigger, when it was one of the two known values. */
  trigger?: "manual" | "auto";
  /** The client whose transcript it was read from, when not Claude Code (`lib/session/codex_snapshot.ts`). */
  host?: "codex";
  /** The hook's working directory: paths inside it are relative. */
  cwd?: string;
  transcript: SnapshotTranscript;
  /** The checked-out branch, from `.git/HEAD`. */
  git: GitBranch | null;
  /** Which tool kept the task list; null when the session kept none. */
  tasks_source: SessionTaskSource | null;
  tasks: SessionTask[];
  tasks_omitted: number;
  /** The latest messages the user typed, newest first. */
  user_requests: UserRequest[];
  /** The files the session changed, most recent first. */
  edited_files: EditedFile[];
  edited_files_total: number;
  working_set: SnapshotWorkingSetItem[];
  /**
   * The files Claude Code re-attaches itself after the compaction: read from the transcript when
   * the boundary was already written, else predicted (its most recently read or written files).
   */
  reattached_files: string[];
  reattached_source: "transcript" | "predicted";
  /**
   * The build, test and lint commands the session ran last, newest first, with how each ended
   * (and the newest command when it failed): what the agent runs again after a compaction, and
   * what summaries rarely keep word for word.
   */
  commands?: SessionCommand[];
  /** The plan file the session worked from (inside the project, or Claude Code's own plans), when it exists. */
  plan_file?: string;
  /** When the latest request is a bare reply ("yes", "1+2"): the assistant's message it answers. */
  reply_to?: string;
  /** What the user asked the summarizer to keep (`/compact <instructions>`), redacted and capped. */
  compact_instructions?: string;
  /**
   * The user's standing instructions in their own words ("please don't amend commits"), from
   * messages older than the latest requests, newest first.
   */
  constraints?: string[];
}

/** Options of {@linkcode buildSessionSnapshot}. */
export interface BuildSessionSnapshotOptions {
  /** The session's id (the hook input's `session_id`). */
  sessionId: string;
  /** The hook input's `cwd`: the project, for relative paths and the branch. Default: the newest row's `cwd`. */
  cwd?: string;
  /** The PreCompact `trigger`; other values are left out. */
  trigger?: string | null;
  /** Default `"pre-compact"`. */
  builtBy?: SnapshotBuiltBy;
  /** Bytes read from the end of the transcript. Default 8 MiB (`transcript.scanBudgetBytes`). */
  budgetBytes?: number;
  /**
   * When the budget ends before `previous`'s newest activity row (or, without `previous`, before
   * the transcript's start): the bytes read in all while the lines that can concern the tasks or
   * the edited files are followed on to that row (or to the start, only when it lies within
   * them). A session with a 1M-token window writes more than the budget between two compactions.
   * Never less than the budget. Default {@linkcode DEFAULT_FOLLOW_BYTES}.
   */
  followBytes?: number;
  /** Clock. Default now. */
  now?: Date;
  /** The branch; default {@linkcode gitBranch} of `cwd`. */
  git?: GitBranch | null;
  /** Files in the working set. Default 10, at most 50. */
  workingSetSize?: number;
  /**
   * The working set when the caller has it already (a workflow's detection ran over the same
   * transcript): it is used as it is and the rows are not ranked a second time. Default: ranked in
   * the same pass ({@linkcode detectWorkspace} with this snapshot as its line observer).
   */
  workingSet?: readonly { path: string; reasons: readonly string[] }[];
  /**
   * Keep `previous`'s working set instead of ranking the rows again, when `previous` can be
   * continued: for a snapshot that only messages the user typed made stale
   * (`currentSessionSnapshot`). The transcript is then read only back to `previous` (and to the
   * newest files read, for the re-attached ones). `workingSet`, when given, comes first. Default false.
   */
  keepWorkingSet?: boolean;
  /**
   * Look for the files Claude Code re-attaches. False for a snapshot that is only continued, never
   * rendered (the background Stop hook's checkpoint): `reattached_files` is then empty, and the pass
   * does not read on past the join for the newest five files read. Default true.
   */
  reattachedFiles?: boolean;
  /** The project for the ranking: paths inside it are relative, files outside it need a tool call. Default `cwd`. */
  projectDir?: string;
  /** Claude Code's config directory (`$CLAUDE_CONFIG_DIR`, else `~/.claude`), where its plan files live. Default: none. */
  claudeConfigDir?: string;
  /** The home directory, written `~` in a plan file's path. Default: none. */
  homeDir?: string;
  /** PreCompact's `custom_instructions` (the user's `/compact` arguments). Default: none. */
  compactInstructions?: string | null;
  /**
   * The id of the task list Claude Code keeps on disk under `claudeConfigDir` (`tasks/<id>/`):
   * when it holds tasks they are the list, the client's own word on them. Default: `sessionId`.
   */
  taskListId?: string;
  /** Most tasks kept. Default 50, at most 200. */
  maxTasks?: number;
  /** Typed messages kept. Default 3, at most 10. */
  userRequests?: number;
  /** Most edited files listed. Default 200, at most 1,000. */
  maxEditedFiles?: number;
  /**
   * The snapshot saved earlier in this session (at the previous compaction): when the pass meets
   * its newest activity row, the tasks, typed requests and edited files of the rows before it are
   * taken from it instead of being read again (`transcript.continues`). It must be of the same
   * session and `cwd`.
   * Default: none (the tail is read to the budget).
   */
  previous?: SessionSnapshot | null;
}

/** How many files Claude Code re-attaches after a compaction. */
export const REATTACHED_FILES = 5;
/**
 * How far back, in all, the task and edit lines are followed to the previous snapshot's row (or
 * the transcript's start) when the budget ends first: 32 MiB. Between two compactions the
 * development set's sessions wrote 7 to 13 bytes of transcript per token of context (quartiles;
 * 21 at most): 7 to 13 MB for a 1M-token window, 21 MB at most.
 */
export const DEFAULT_FOLLOW_BYTES = 32 << 20;
const FILE_TOOLS: ReadonlySet<string> = new Set(["Read", "Edit", "Write", "MultiEdit", "NotebookEdit"]);
const MAX_CWD_CHARS = 4096;
/**
 * What a line must hold to concern the task list or the edited files, whatever its formatting: the
 * tool names, their results (`Task #1 created`, `tasks`, `success`, `"create"`), errors, and the
 * file history. A line that holds one only by chance is parsed for nothing, never missed.
 */
const LATE_NEEDLES = [
  "Task",
  "task",
  // `Write"` ends "Write" and "TodoWrite", `Edit"` ends "Edit", "MultiEdit" and "NotebookEdit":
  // inside a JSON string a quote is escaped, so these end a name or a key.
  'Write"',
  'Edit"',
  "is_error",
  "success",
  "file-history-snapshot",
  '"create"',
]
  .map(needle);
/**
 * What a row must spell to concern the task list or the edited files at all: a tool call, a tool
 * result or the file history. An assistant text or a typed message that merely says "task" does not.
 */
const CONCERNS = ['"tool_use"', '"tool_result"', "file-history-snapshot"].map(needle);
const IS_ERROR = needle("is_error");
const TOOL_RESULT = needle('"tool_result"');
const CREATE = needle('"create"');
/** Tools whose results the trackers read: the task tools', the edit tools' and the file tools'. */
const TRACKED_TOOLS: ReadonlySet<string> = new Set([
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
  "TodoWrite",
  "Read",
  "Edit",
  "Write",
  "MultiEdit",
  "NotebookEdit",
]);
/** The shell tool: its build, test and lint commands are kept with how they ended. */
const BASH_TOOLS: ReadonlySet<string> = new Set(["Bash"]);
/** A line that can hold a Bash call: the tool's name is spelled as a JSON string in it. */
const BASH_NEEDLES = ['"Bash"'].map(needle);
/** Lines that can be a message the user typed or queued (string content, or the queue's row). */
const TYPED_NEEDLES = ['"role":"user","content":"', '"enqueue"'].map(needle);
/** Lines that can name the plan file: plan-mode attachments, an approved plan, a plan-mode exit. */
const PLAN_NEEDLES = ["planFilePath", "planContent", "ExitPlanMode"].map(needle);
/**
 * How far back from the transcript's end the build, test and lint commands are looked for: the
 * results of the calls there are kept unparsed until their call is met. Older commands come from
 * the snapshot or checkpoint the pass continues.
 */
export const COMMAND_LOOKBACK_BYTES = 4 << 20;
/** Bash results kept, parsed, until their call is met (the newest rows are parsed whole). */
const MAX_KEPT_RESULTS = 2000;
/** Of a kept result's output: its head (where a log says what failed first) and its tail. */
const KEPT_HEAD_CHARS = 64 * 1024;
const KEPT_TAIL_CHARS = 4096;
/** Longest `/compact` instruction kept. */
const MAX_COMPACT_INSTRUCTIONS = 2000;
/** Tools whose results count only when they failed, or (the edit tools) created a file. */
const ERROR_OR_CREATE_ONLY: ReadonlySet<string> = new Set(["Read", "Edit", "Write", "MultiEdit", "NotebookEdit"]);

/**
 * A line that can only record tool results ({@linkcode toolResultLineIds}), kept unparsed until
 * the pass meets the call it answers: where it lies, whether its bytes spell an error or a file
 * created, and the line it replaced for the same id (newer: the pass reads backwards).
 */
interface DeferredResult {
  offset: number;
  length: number;
  error: boolean;
  create: boolean;
  prev?: DeferredResult;
}

/**
 * Builds the session snapshot from ONE backward pass over the transcript's tail (at most
 * `budgetBytes`, 8 MiB by default; when the previous snapshot's row, or the start of a transcript
 * not much longer, lies beyond it, the task and edit lines are followed on to it, up to
 * `followBytes`): the task list ({@linkcode taskTracker}), the latest typed requests
 * ({@linkcode userRequestTracker}), the edited files ({@linkcode editedFileTracker}), the working
 * set (`workingSet` of lib/detect, fed the same rows), the files Claude Code re-attaches, and the
 * branch ({@linkcode gitBranch}). Every text is redacted and capped, so the result is
 * bounded whatever the transcript holds. A missing or empty transcript gives an empty snapshot.
 *
 * @example
 * ```ts
 * import { buildSessionSnapshot } from "./snapshot.ts";
 * const snapshot = buildSessionSnapshot("/home/me/.claude/projects/-home-me-app/7da37d46.jsonl", {
 *   sessionId: "7da37d46-8061-4f75-801e-26383afad198",
 *   cwd: "/home/me/app",
 *   trigger: "auto",
 * });
 * console.log(snapshot.tasks.filter((t) => t.status !== "completed").length, snapshot.user_requests[0]?.text);
 * ```
 */
export function buildSessionSnapshot(transcriptPath: string, options: BuildSessionSnapshotOptions): SessionSnapshot {
  const cwd = typeof options.cwd === "string" && options.cwd !== "" && options.cwd.length <= MAX_CWD_CHARS &&
      !hasControl(options.cwd)
    ? options.cwd
    : undefined;
  const shownCwd = cwd === undefined ? undefined : redact(cwd);
  const stats: ReverseLinesStats = { bytesRead: 0, reachedStart: false };
  const tasks = taskTracker({ maxTasks: clamp(options.maxTasks, 50, 200) });
  const requests = userRequestTracker({ limit: clamp(options.userRequests, 3, 10) });
  const edits = editedFileTracker({
    cwd,
    max: clamp(options.maxEditedFiles, 200, 1000),
    historyBase: transcriptOriginCwd(transcriptPath),
  });
  const files = recentFileTracker();
  const commands = commandTracker();
  const constraints = constraintTracker({ skip: clamp(options.userRequests, 3, 10) });
  const plans = planFileTracker({
    projectDir: options.projectDir ?? cwd,
    claudeConfigDir: options.claudeConfigDir,
    homeDir: options.homeDir,
  });
  // Bash results met parsed (the newest rows are parsed whole), by call id, until their call is met.
  const bashResults = new Map<string, ToolResult>();
  // True while the task and edit lines are followed past the budget: nothing else is looked for.
  let following = false;
  const wantsCommands = () => !following && commands.wants() && stats.bytesRead <= COMMAND_LOOKBACK_BYTES;
  let newestCwd: string | undefined;
  let mark: ReturnType<typeof activityMark> | undefined;
  // The earlier snapshot this one can continue, and whether the pass has met its newest activity
  // row: from there on, the tasks and edited files are the earlier snapshot's, not read again.
  const previous = continuable(options.previous, options.sessionId, shownCwd);
  const join = previous === undefined ? undefined : [needle(JSON.stringify(previous.transcript.last_uuid))];
  let joined = false;
  // Tool-result lines that can matter only through the call they answer, by its id: most results
  // are of reads, searches and commands, which the trackers never look at, and the needles find
  // words like "task" and "success" in most of them. Read again and parsed when the call is met.
  let reader: ReverseByteLines | undefined;
  const deferred = new Map<string, DeferredResult>();
  const fed = new Set<number>();
  const defer = (line: Buffer, ids: readonly string[] | undefined): boolean => {
    if (reader === undefined || ids === undefined || ids.length === 0) return false;
    // The previous snapshot's row may be a tool result: it is parsed, to be met.
    if (join !== undefined && containsAny(line, join)) return false;
    const offset = reader.lineStart();
    const error = line.indexOf(IS_ERROR) !== -1;
    const create = line.indexOf(CREATE) !== -1;
    for (const id of ids) {
      deferred.set(id, { offset, length: line.length, error, create, prev: deferred.get(id) });
    }
    return true;
  };
  // Before a call row: the results recorded for its calls, newest first, as the eager read fed
  // them (the entry kept is the oldest line read, `prev` the newer one it replaced). A result of a
  // read or an edit counts only when it failed or created a file, which its bytes spell (the line
  // has no escape that could spell a letter: toolResultLineIds).
  const feedResults = (row: TranscriptRow) => {
    for (const call of rowToolCalls(row, TRACKED_TOOLS)) {
      const lazy = ERROR_OR_CREATE_ONLY.has(call.name);
      const chain: DeferredResult[] = [];
      for (let d = deferred.get(call.id); d !== undefined; d = d.prev) chain.push(d);
      for (let i = chain.length - 1; i >= 0; i--) {
        const d = chain[i];
        if ((lazy && !d.error && !d.create) || fed.has(d.offset)) continue;
        fed.add(d.offset);
        const bytes = reader?.readAt(d.offset, d.length);
        const result = bytes === undefined ? undefined : parseRow(bytes);
        if (result === undefined) continue;
        if (!joined) {
          tasks.add(result);
          edits.add(result);
        }
        files.add(result, false);
      }
      deferred.delete(call.id);
    }
  };
  // A Bash call's result: met parsed already, or kept unparsed by its id (its newest line).
  const bashResult = (id: string): ToolResult | undefined => {
    const parsed = bashResults.get(id);
    if (parsed !== undefined) {
      bashResults.delete(id);
      return parsed;
    }
    let d = deferred.get(id);
    if (d === undefined) return undefined;
    while (d.prev !== undefined) d = d.prev;
    deferred.delete(id);
    const bytes = reader?.readAt(d.offset, d.length);
    const row = bytes === undefined ? undefined : parseRow(bytes);
    return row === undefined ? undefined : toolResults(row).find((r) => r.id === id);
  };
  const feedCommands = (row: TranscriptRow) => {
    const calls = rowToolCalls(row, BASH_TOOLS);
    if (calls.length === 0) return;
    // The session's newest command counts as its active failure only within the latest turns.
    const recent = requests.result().length <= 1;
    for (const call of calls) commands.add(call, bashResult(call.id), row, recent);
  };
  // What the task list and the edited files take from a row read before the join.
  const track = (row: TranscriptRow) => {
    if (deferred.size > 0 && row.type === "assistant") feedResults(row);
    if (!joined) {
      tasks.add(row);
      edits.add(row);
    }
  };

  const observe = (row: TranscriptRow) => {
    if (newestCwd === undefined && typeof row.cwd === "string" && row.cwd !== "" && row.isSidechain !== true) {
      newestCwd = row.cwd;
    }
    if (previous !== undefined && !joined && isJoinRow(row, previous)) {
      joined = true;
      requests.older(previous.user_requests);
      commands.older(previous.commands ?? []);
      constraints.older(previous.constraints ?? []);
    }
    if (!joined && wantsCommands()) {
      if (row.type === "assistant") feedCommands(row);
      else if (row.type === "user") {
        for (const r of toolResults(row)) if (bashResults.size < MAX_KEPT_RESULTS) bashResults.set(r.id, keptResult(r));
      }
    }
    if (!joined && !plans.found()) plans.add(row);
    if (!joined && !constraints.full()) constraints.add(row);
    track(row);
    if (!requests.full()) requests.add(row);
    files.add(row, mark === undefined);
    if (mark === undefined && isActivityRow(row)) mark = activityMark(row);
  };
  const wantsFiles = options.reattachedFiles !== false;
  const early = () => !(requests.full() && (!wantsFiles || files.full()) && mark !== undefined);
  const late = (line: Buffer) =>
    !joined &&
    ((containsAny(line, LATE_NEEDLES) && !spellsNone(line, CONCERNS)) ||
      (join !== undefined && containsAny(line, join)) ||
      (!following &&
        ((wantsCommands() && containsAny(line, BASH_NEEDLES)) ||
          (!plans.found() && containsAny(line, PLAN_NEEDLES)) ||
          (!constraints.full() && containsAny(line, TYPED_NEEDLES)))));
  // A line to parse past the newest requests and files, once the newest activity and `cwd` are
  // known: one of the late lines, not inert, and not a tool result kept for its call.
  // While commands are looked for, any tool-result line is kept by its ids too: a Bash result
  // spells none of the late lines' words.
  const lateKnown = (
    line: Buffer,
    inert: boolean | undefined,
    resultOnly: boolean | undefined,
    ids: readonly string[] | undefined,
  ) => {
    const needed = late(line);
    if (!needed && !(wantsCommands() && line.indexOf(TOOL_RESULT) !== -1)) return false;
    if (inert ?? isInertLine(line)) return false;
    if (resultOnly !== false && defer(line, ids ?? toolResultLineIds(line))) return false;
    return needed;
  };
  // Every row until the requests, the recent files and the newest activity are known; then only
  // the lines that can concern the tasks or the edited files, until the join. A line that can only
  // record tool results is never a typed request: once the newest activity and `cwd` are known, it
  // is kept for its call (`defer`) when its needles say it may matter (an error, a task created, a
  // file created). From then on an inert line (a hook's progress row, …) is never read.
  const observer: LineObserver = {
    wants: (line, resultOnly, inert, ids) => {
      const known = mark !== undefined && newestCwd !== undefined;
      if (!early()) return known ? lateKnown(line, inert, resultOnly, ids) : late(line);
      if (!known) return true;
      if (inert ?? isInertLine(line)) return false;
      const results = resultOnly === false ? undefined : ids ?? toolResultLineIds(line);
      if (results === undefined) return true;
      const needed = late(line);
      if (!needed && !wantsCommands()) return false;
      return !defer(line, results) && needed;
    },
    row: observe,
    done: () => joined && !early(),
    reading: (lines) => reader = lines,
  };

  // One backward pass: the detector's when the working set is ranked here (it parses the lines
  // this snapshot wants and those its evidence needs, each once), else this snapshot's own.
  const budget = positiveInt(options.budgetBytes, DEFAULT_SCAN_BUDGET_BYTES);
  const limit = clamp(options.workingSetSize, 10, 50);
  // `previous`'s working set, already as a snapshot keeps it: not cleaned again.
  const kept = options.workingSet === undefined && options.keepWorkingSet === true ? previous?.working_set : undefined;
  const given = options.workingSet ?? kept;
  let ranked: SnapshotWorkingSetItem[];
  if (given !== undefined) {
    ranked = toItems(given, limit);
    const lines = reverseLines(transcriptPath, budget, DEFAULT_SCAN_CHUNK_BYTES, stats);
    reader = lines;
    try {
      for (let line = lines.next(); line !== undefined; line = lines.next()) {
        if (observer.done!()) break;
        if (!observer.wants(line, undefined, undefined, undefined)) continue;
        const row = parseRow(line);
        if (row !== undefined) observe(row);
      }
    } finally {
      lines.close();
    }
  } else {
    const found = detectWorkspace(transcriptPath, {
      budgetBytes: budget,
      cwd,
      projectDir: options.projectDir ?? cwd,
      workingSetSize: limit,
      activeProject: false,
      observer,
      stats,
    });
    ranked = toItems(found.workingSet, limit);
  }

  // The budget ended before the previous snapshot's row, or without one, before the start of a
  // transcript that `followBytes` would read whole (a 1M-token window's first compaction): the
  // task and edit lines are followed on to it (nothing else: the evidence, the requests and the
  // recent files keep to the budget).
  const reach = Math.max(budget, positiveInt(options.followBytes, DEFAULT_FOLLOW_BYTES));
  const follow = !joined && !stats.reachedStart && stats.bytesRead >= budget &&
    (previous !== undefined || (stats.lastLineStart !== undefined && stats.lastLineStart <= reach - budget));
  if (follow) {
    following = true;
    const more: ReverseLinesStats = { bytesRead: 0, reachedStart: false };
    const lines = reverseLines(transcriptPath, reach - budget, DEFAULT_SCAN_CHUNK_BYTES, more, stats.lastLineStart);
    reader = lines;
    try {
      for (let line = lines.next(); line !== undefined && !joined; line = lines.next()) {
        if (!lateKnown(line, undefined, undefined, undefined)) continue;
        const row = parseRow(line);
        if (row === undefined) continue;
        // The typed requests are not followed (a gap would put an older one next to a newer), so
        // the previous snapshot's are not taken either.
        if (previous !== undefined && isJoinRow(row, previous)) joined = true;
        else track(row);
      }
    } finally {
      lines.close();
    }
    stats.bytesRead += more.bytesRead;
    stats.reachedStart = more.reachedStart;
  }
  if (joined && previous !== undefined) {
    tasks.older({ source: previous.tasks_source, tasks: previous.tasks, omitted: previous.tasks_omitted });
    edits.older({ files: previous.edited_files, total: previous.edited_files_total });
  }
  const dir = cwd ?? newestCwd;
  // The client's task files, when its task tools keep them, over what the transcript shows.
  const taskList =
    (options.claudeConfigDir === undefined
      ? null
      : clientTaskList(options.claudeConfigDir, options.taskListId ?? options.sessionId, {
        maxTasks: clamp(options.maxTasks, 50, 200),
      })) ?? tasks.result();
  const edited = edits.result();
  const reattached = wantsFiles ? files.result(dir) : { files: [], source: "predicted" as const };
  const transcript: SnapshotTranscript = {
    bytes_read: stats.bytesRead,
    reached_start: stats.reachedStart || stats.bytesRead === 0,
  };
  if (mark?.uuid !== undefined) transcript.last_uuid = mark.uuid;
  if (mark?.timestamp !== undefined) transcript.last_timestamp = mark.timestamp;
  if (joined && previous !== undefined) transcript.continues = previous.created_at;
  const trigger = options.trigger === "manual" || options.trigger === "auto" ? options.trigger : undefined;
  const userRequests = requests.result();
  const commandList = commands.result();
  const plan = plans.result() ?? (joined ? previous?.plan_file : undefined);
  // A bare reply the previous snapshot kept as the latest request keeps the message it answered.
  const replyTo = requests.replyTo() ??
    (joined && previous?.reply_to !== undefined && previous.user_requests[0]?.text === userRequests[0]?.text
      ? previous.reply_to
      : undefined);
  const instructions = typeof options.compactInstructions === "string" && options.compactInstructions.trim() !== ""
    ? cutMiddle(options.compactInstructions.trim(), MAX_COMPACT_INSTRUCTIONS, { redact: true })
    : undefined;
  const snapshot: SessionSnapshot = {
    schema_version: 1,
    session_id: options.sessionId,
    created_at: (options.now ?? new Date()).toISOString(),
    built_by: options.builtBy ?? "pre-compact",
    ...(trigger === undefined ? {} : { trigger }),
    ...(shownCwd === undefined || shownCwd.length > MAX_CWD_CHARS ? {} : { cwd: shownCwd }),
    transcript,
    git: safeGit(options.git !== undefined ? options.git : dir === undefined ? null : gitBranch(dir)),
    tasks_source: taskList.source,
    tasks: taskList.tasks,
    tasks_omitted: taskList.omitted,
    user_requests: userRequests,
    edited_files: edited.files,
    edited_files_total: edited.total,
    working_set: kept !== undefined ? ranked : cleanWorkingSet(ranked),
    reattached_files: reattached.files,
    reattached_source: reattached.source,
  };
  if (commandList.length > 0) snapshot.commands = commandList;
  if (plan !== undefined) snapshot.plan_file = plan;
  if (replyTo !== undefined) snapshot.reply_to = replyTo;
  if (instructions !== undefined) snapshot.compact_instructions = instructions;
  const rules = constraints.result();
  if (rules.length > 0) snapshot.constraints = rules;
  return snapshot;
}

/** A Bash result as kept until its call is met: the head and tail of its output only. */
function keptResult(result: ToolResult): ToolResult {
  const text = resultText(result.content);
  const content = text.length <= KEPT_HEAD_CHARS + KEPT_TAIL_CHARS
    ? text
    : text.slice(0, KEPT_HEAD_CHARS) + "\n" + text.slice(-KEPT_TAIL_CHARS);
  const out: ToolResult = { id: result.id, isError: result.isError, content };
  const d = result.detail;
  if (d !== undefined && (d.interrupted === true || typeof d.backgroundTaskId === "string")) {
    out.detail = { interrupted: d.interrupted, backgroundTaskId: d.backgroundTaskId };
  }
  return out;
}

/** `previous` when this snapshot can continue it: the same session and `cwd`, with its newest activity row known. */
function continuable(
  previous: SessionSnapshot | null | undefined,
  sessionId: string,
  shownCwd: string | undefined,
): (SessionSnapshot & { transcript: { last_uuid: string } }) | undefined {
  if (previous === null || previous === undefined || previous.session_id !== sessionId) return undefined;
  if (shownCwd === undefined || previous.cwd !== shownCwd) return undefined;
  const uuid = previous.transcript?.last_uuid;
  if (typeof uuid !== "string" || uuid === "") return undefined;
  return previous as SessionSnapshot & { transcript: { last_uuid: string } };
}

/** The main-chain activity row `previous` was dated by (its uuid, and its timestamp when it kept one). */
function isJoinRow(row: TranscriptRow, previous: SessionSnapshot): boolean {
  return isMarkedRow(row, { uuid: previous.transcript.last_uuid, timestamp: previous.transcript.last_timestamp });
}

function toItems(
  items: readonly { path: string; reasons: readonly string[] }[],
  limit: number,
): SnapshotWorkingSetItem[] {
  return items.slice(0, limit).map((item) => ({ path: item.path, reasons: [...item.reasons] }));
}

/**
 * A path read out of a URL's credentials (`https://user:<password>@host/x` gives the token
 * `<password>@host/x`): redaction cannot know it for a password once the URL around it is gone.
 */
const URL_USERINFO = /^[^/@]+@[^/]*\//;

/** Working-set paths as the snapshot keeps them: redacted, no control characters, not overlong, none from a URL's credentials. */
function cleanWorkingSet(items: SnapshotWorkingSetItem[]): SnapshotWorkingSetItem[] {
  const out: SnapshotWorkingSetItem[] = [];
  for (const item of items) {
    if (typeof item.path !== "string" || URL_USERINFO.test(item.path)) continue;
    const path = safeFilePath(item.path, undefined, undefined);
    if (path === undefined) continue;
    out.push({ path, reasons: item.reasons.filter((r) => /^[a-z][a-z-]{0,31}$/.test(r)).slice(0, 16) });
  }
  return out;
}

/**
 * The files Claude Code re-attaches after a compaction. Read from the transcript when the pass
 * meets a compact boundary before any activity (the boundary is already written: the `file`
 * attachments after it are the re-attached files); else predicted as the client picks them, its
 * {@linkcode REATTACHED_FILES} most recently read or written files.
 */
function recentFileTracker() {
  const recent: { raw: string; base?: string }[] = [];
  const seen = new Set<string>();
  const failed = new Set<string>();
  const attached: string[] = [];
  let confirmed: string[] | undefined;
  return {
    /** True once nothing older can change the result. */
    full: (): boolean => confirmed !== undefined || recent.length >= REATTACHED_FILES,
    add(row: TranscriptRow, beforeActivity: boolean): void {
      if (beforeActivity && confirmed === undefined) {
        const file = attachedFile(row);
        if (file !== undefined && attached.length < 50) attached.push(file);
        else if (isCompactBoundaryRow(row)) confirmed = attached;
      }
      if (recent.length >= REATTACHED_FILES) return;
      if (row.type === "user") {
        for (const r of toolResults(row)) if (r.isError && failed.size < 1000) failed.add(r.id);
        return;
      }
      if (row.type !== "assistant") return;
      const base = typeof row.cwd === "string" && row.cwd !== "" ? row.cwd : undefined;
      for (const call of rowToolCalls(row, FILE_TOOLS)) {
        if (failed.delete(call.id)) continue;
        const raw = typeof call.input.file_path === "string" ? call.input.file_path : call.input.notebook_path;
        if (typeof raw !== "string" || raw === "" || seen.has(raw) || recent.length >= REATTACHED_FILES) continue;
        seen.add(raw);
        recent.push(base === undefined ? { raw } : { raw, base });
      }
    },
    result(dir: string | undefined): { files: string[]; source: "transcript" | "predicted" } {
      if (confirmed !== undefined) {
        return { files: shownFileList(confirmed.map((raw) => ({ raw })), dir), source: "transcript" };
      }
      return { files: shownFileList(recent, dir), source: "predicted" };
    },
  };
}
