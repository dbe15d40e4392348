import type { TranscriptRow } from "../transcript/transcript_row.ts";
import type { ReverseLinesStats } from "../transcript/lines.ts";
import { rolloutRows } from "../codex/rollout_rows.ts";
import { type FileChange, type RolloutItem, rolloutItems } from "../codex/rollout_items.ts";
import type { RolloutRow } from "../codex/rollout_row.ts";
import { redact } from "../redact/redact.ts";
import { cutText } from "../redact/quote_line.ts";
import { hasControl } from "./_text.ts";
import { safeFilePath } from "./_paths.ts";
import { type GitBranch, gitBranch } from "./git_branch.ts";
import { clamp, safeGit } from "./_snapshot_parts.ts";
import type { EditedFile } from "./edited_files.ts";
import type { SessionTask } from "./tasks.ts";
import { userRequestTracker } from "./user_requests.ts";
import { commandTracker } from "./commands.ts";
import { constraintTracker } from "./constraints.ts";
import type { SessionSnapshot, SnapshotBuiltBy, SnapshotWorkingSetItem } from "./snapshot.ts";

/** Options of {@linkcode buildCodexSnapshot}. */
export interface BuildCodexSnapshotOptions {
  /** The thread's id (the hook input's `session_id`). */
  sessionId: string;
  /** The hook input's `cwd`: paths inside it are relative. Default: the newest `turn_context`'s. */
  cwd?: string;
  /** The PreCompact `trigger`; other values are left out. */
  trigger?: string | null;
  /** Default `"pre-compact"`. */
  builtBy?: SnapshotBuiltBy;
  /** Bytes read from the end of the rollout. Default 8 MiB (`transcript.scanBudgetBytes`). */
  budgetBytes?: number;
  /**
   * Read only what came before the newest compaction: the rows after its `compacted` row are the
   * compacted context's, not the session's. For SessionStart(compact), which runs after Codex
   * wrote the summary. Default false (PreCompact: nothing is compacted yet).
   */
  beforeCompaction?: boolean;
  /** Clock. Default now. */
  now?: Date;
  /** The branch; default {@linkcode gitBranch} of `cwd`. */
  git?: GitBranch | null;
  /** Typed messages kept. Default 3, at most 10. */
  userRequests?: number;
  /** Most plan steps kept. Default 50, at most 200. */
  maxTasks?: number;
  /** Most edited files listed. Default 200, at most 1,000. */
  maxEditedFiles?: number;
}

/** What {@linkcode codexSnapshotMark} found. */
export interface CodexSnapshotMark {
  /** `ordinal:<n>` of the newest activity row before the newest compaction (or of the file, without one). */
  uuid?: string;
  timestamp?: string;
}

const MAX_CWD_CHARS = 4096;
const MAX_SUBJECT = 300;
const WORKING_SET = 10;

/**
 * Builds the everyday layer's session snapshot (`schemas/session_snapshot.v1.json`, the same
 * shape as Claude Code's, `host: "codex"`) from ONE backward pass over a Codex rollout's tail: the
 * plan (the newest `update_plan`: its steps are the tasks, `tasks_source: "plan"`), the user's
 * latest typed messages and standing instructions (the same trackers as Claude Code's, fed the
 * rollout's messages), the question a bare reply answers, the build, test and lint commands with
 * how they ended (the client's `CommandExecution`: its exit code and output), the files the
 * session changed (finished `FileChange`s that applied; `add` marks a file created), a working
 * set of the edited and read files, and the branch. Codex re-attaches no files after a
 * compaction (`reattached_files` is empty) and has no plan file or `/compact` instructions.
 * Every text is redacted and capped. A missing or empty rollout gives an empty snapshot.
 *
 * @example
 * ```ts
 * import { buildCodexSnapshot } from "./codex_snapshot.ts";
 * const snapshot = buildCodexSnapshot("/home/me/.codex/sessions/2026/11/28/rollout-….jsonl", {
 *   sessionId: "01a222af-8e85-7882-b8cd-0b13a7618768",
 *   cwd: "/home/me/app",
 *   trigger: "manual",
 * });
 * console.log(snapshot.tasks.map((t) => t.subject), snapshot.commands?.[0]?.command);
 * ```
 */
export function buildCodexSnapshot(rolloutPath: string, options: BuildCodexSnapshotOptions): SessionSnapshot {
  let cwd = typeof options.cwd === "string" && options.cwd !== "" && options.cwd.length <= MAX_CWD_CHARS &&
      !hasControl(options.cwd)
    ? options.cwd
    : undefined;
  const limit = clamp(options.userRequests, 3, 10);
  const requests = userRequestTracker({ limit });
  const constraints = constraintTracker({ skip: limit });
  const commands = commandTracker();
  const maxEdited = clamp(options.maxEditedFiles, 200, 1000);
  const edits = new Map<string, { created: boolean }>();
  const reads: string[] = [];
  let plan: { steps: SessionTask[]; omitted: number } | undefined;
  let mark: CodexSnapshotMark | undefined;
  let newestCwd: string | undefined;

  const stats: ReverseLinesStats = { bytesRead: 0, reachedStart: false };
  for (
    const { row, items } of sessionRows(rolloutPath, options.beforeCompaction === true, options.budgetBytes, stats)
  ) {
    for (const item of items) {
      if (mark === undefined && isActivity(item)) mark = markOf(row.ordinal, row.timestamp);
      feed(item, row.timestamp);
    }
  }

  function feed(item: RolloutItem, timestamp: string | undefined): void {
    switch (item.kind) {
      case "cwd":
        newestCwd ??= item.cwd;
        return;
      case "typed": {
        const row: TranscriptRow = { type: "user", message: { role: "user", content: item.text }, timestamp };
        if (!requests.full()) requests.add(row);
        if (!constraints.full()) constraints.add(row);
        return;
      }
      case "assistant":
        if (!requests.full()) {
          requests.add({
            type: "assistant",
            message: { role: "assistant", content: [{ type: "text", text: item.text }] },
          });
        }
        return;
      case "plan":
        plan ??= planTasks(item.steps, timestamp, clamp(options.maxTasks, 50, 200));
        return;
      case "command":
        if (commands.wants()) {
          const failed = item.exit !== undefined && item.exit !== 0;
          commands.add(
            { input: { command: item.command } },
            {
              id: "",
              isError: failed,
              content: failed ? `Exit code ${item.exit}\n${item.output}` : item.output,
            },
            { type: "assistant", timestamp },
            requests.result().length <= 1,
          );
        }
        return;
      case "edit":
        if (item.ok) addEdits(item.changes);
        return;
      case "read":
        if (reads.length < 50 && !reads.includes(item.path)) reads.push(item.path);
        return;
      default:
        return;
    }
  }

  function addEdits(changes: FileChange[]): void {
    // Newest first: a file met again in an older change was created only if that one added it.
    for (const c of changes) {
      const known = edits.get(c.path);
      if (known === undefined) {
        if (edits.size < 5000) edits.set(c.path, { created: c.type === "add" });
      } else known.created = c.type === "add";
    }
  }

  cwd ??= newestCwd;
  const shownCwd = cwd === undefined ? undefined : redact(cwd);
  const edited: EditedFile[] = [];
  let total = 0;
  for (const [path, e] of edits) {
    const shown = safeFilePath(path, cwd, cwd);
    if (shown === undefined || edited.some((f) => f.path === shown)) continue;
    total++;
    if (edited.length < maxEdited) edited.push(e.created ? { path: shown, created: true } : { path: shown });
  }
  const workingSet: SnapshotWorkingSetItem[] = edited.slice(0, WORKING_SET).map((f) => ({
    path: f.path,
    reasons: ["edited"],
  }));
  for (const raw of reads) {
    if (workingSet.length >= WORKING_SET) break;
    const shown = safeFilePath(raw, cwd, cwd);
    if (shown === undefined) continue;
    const known = workingSet.find((w) => w.path === shown);
    if (known !== undefined) {
      if (!known.reasons.includes("read")) known.reasons.push("read");
    } else workingSet.push({ path: shown, reasons: ["read"] });
  }
  const trigger = options.trigger === "manual" || options.trigger === "auto" ? options.trigger : undefined;
  const snapshot: SessionSnapshot = {
    schema_version: 1,
    session_id: options.sessionId,
    created_at: (options.now ?? new Date()).toISOString(),
    built_by: options.builtBy ?? "pre-compact",
    ...(trigger === undefined ? {} : { trigger }),
    host: "codex",
    ...(shownCwd === undefined || shownCwd.length > MAX_CWD_CHARS ? {} : { cwd: shownCwd }),
    transcript: {
      bytes_read: stats.bytesRead,
      reached_start: stats.reachedStart || stats.bytesRead === 0,
      ...(mark?.uuid === undefined ? {} : { last_uuid: mark.uuid }),
      ...(mark?.timestamp === undefined ? {} : { last_timestamp: mark.timestamp }),
    },
    git: safeGit(options.git !== undefined ? options.git : cwd === undefined ? null : gitBranch(cwd)),
    tasks_source: plan === undefined ? null : "plan",
    tasks: plan?.steps ?? [],
    tasks_omitted: plan?.omitted ?? 0,
    user_requests: requests.result(),
    edited_files: edited,
    edited_files_total: total,
    working_set: workingSet,
    reattached_files: [],
    reattached_source: "transcript",
  };
  const commandList = commands.result();
  if (commandList.length > 0) snapshot.commands = commandList;
  const replyTo = requests.replyTo();
  if (replyTo !== undefined) snapshot.reply_to = replyTo;
  const rules = constraints.result();
  if (rules.length > 0) snapshot.constraints = rules;
  return snapshot;
}

/**
 * The newest activity row of a rollout (a typed message, the model's text or tool call, a
 * finished command or file change) before its newest compaction (`beforeCompaction`), or of the
 * whole tail: what a snapshot built from it records as `transcript.last_uuid` (`ordinal:<n>`) and
 * `last_timestamp`. A saved snapshot with the same mark is current. Reads backwards only to that
 * row, within `budgetBytes`.
 *
 * @example
 * ```ts
 * import { codexSnapshotMark } from "./codex_snapshot.ts";
 * const mark = codexSnapshotMark(rolloutPath, { beforeCompaction: true });
 * const current = saved.transcript.last_uuid === mark.uuid;
 * ```
 */
export function codexSnapshotMark(
  rolloutPath: string,
  options: { beforeCompaction?: boolean; budgetBytes?: number } = {},
): CodexSnapshotMark {
  for (const { row, items } of sessionRows(rolloutPath, options.beforeCompaction === true, options.budgetBytes)) {
    if (items.some(isActivity)) return markOf(row.ordinal, row.timestamp);
  }
  return {};
}

/**
 * The rollout's rows newest first with their items; with `beforeCompaction`, only those older
 * than the newest `compacted` row (the ones after it are the compacted context's).
 */
function* sessionRows(
  path: string,
  beforeCompaction: boolean,
  budgetBytes: number | undefined,
  stats?: ReverseLinesStats,
): Generator<{ row: RolloutRow; items: RolloutItem[] }> {
  let skipping = beforeCompaction;
  const rows = rolloutRows(path, { budgetBytes, stats });
  try {
    for (let row = rows.next(); row !== undefined; row = rows.next()) {
      const items = rolloutItems(row);
      if (skipping) {
        if (items.some((i) => i.kind === "compacted")) skipping = false;
        continue;
      }
      yield { row, items };
    }
  } finally {
    rows.close();
  }
}

function isActivity(item: RolloutItem): boolean {
  return item.kind === "typed" || item.kind === "assistant" || item.kind === "plan" || item.kind === "call" ||
    item.kind === "command" || item.kind === "edit";
}

function markOf(ordinal: number | undefined, timestamp: string | undefined): CodexSnapshotMark {
  return {
    ...(ordinal === undefined ? {} : { uuid: `ordinal:${ordinal}` }),
    ...(timestamp === undefined ? {} : { timestamp }),
  };
}

/** The plan's steps as tasks: subjects redacted and capped, open ones kept first past `max`. */
function planTasks(
  steps: readonly { step: string; status: SessionTask["status"] }[],
  timestamp: string | undefined,
  max: number,
): { steps: SessionTask[]; omitted: number } {
  const all: SessionTask[] = [];
  for (const s of steps) {
    const subject = cutText(redact(s.step.trim()), MAX_SUBJECT);
    if (subject === "") continue;
    const task: SessionTask = { source: "plan", subject, status: s.status };
    if (subject.length < s.step.trim().length) task.truncated = true;
    if (timestamp !== undefined) task.updated_at = timestamp;
    all.push(task);
  }
  if (all.length <= max) return { steps: all, omitted: 0 };
  const open = all.filter((t) => t.status !== "completed");
  const keep = new Set([...open, ...all.filter((t) => t.status === "completed")].slice(0, max));
  return { steps: all.filter((t) => keep.has(t)), omitted: all.length - keep.size };
}
