import type { HookContext } from "../hook/handle_hook.ts";
import { projectBoundary } from "../detect/project_boundary.ts";
import { buildSessionSnapshot, type SessionSnapshot } from "./snapshot.ts";
import { writeSessionSnapshot } from "./snapshot_file.ts";
import { newestSavedSnapshot } from "./checkpoint.ts";
import { MAX_SUMMARIZER_CHARS, summarizerInstructions } from "./summarizer_instructions.ts";
import { isOpenTask } from "./tasks.ts";
import { claudeDirs } from "./claude_dirs.ts";
import { sessionMark } from "./session_mark.ts";

/**
 * The re-read reason's line when a task is open: ours only. The task's own words are in the
 * compaction's summary, or in rehydrate's <session-context> when the summary lost it.
 */
const OPEN_TASK =
  "Your open task is in the compaction's summary, or quoted in <session-context> when the summary lost it, as data: take it from there.";

/** What {@linkcode sessionPreCompact} saved and asks of the summarizer. */
export interface SessionPreCompact {
  snapshot: SessionSnapshot;
  /** Plain text for the summarizer (at most 1,500 characters); "" when there is nothing to keep. */
  summaryInstructions: string;
  /**
   * The files to re-read when `reread.enforce` is true: the edited ones inside the project (by
   * their real path), newest first (at most 6).
   */
  rereadFiles: string[];
  /** Our one line on the open work, for the re-read reason (no text of the task's); "" when no task is open. */
  rereadReason: string;
}

/**
 * The everyday layer's PreCompact, in every repository: builds the session snapshot from the
 * transcript tail (open tasks, the user's latest requests, edited files, working set, branch),
 * saves it in the private state directory (never in the repository) and returns the summarizer
 * instructions that ask to keep the open tasks, the latest request and the files by name, within
 * `options.maxChars` (at most 1,500, the default). `options.workingSet` is the working set a
 * workflow's detection already ranked over the same transcript.
 * Throws on an unsafe state directory or an unwritable snapshot: the hook fails open.
 *
 * @example
 * ```ts
 * const session = guard(ctx, "session", () => sessionPreCompact(ctx));
 * if (session?.summaryInstructions) instructions.push(session.summaryInstructions);
 * ```
 */
export function sessionPreCompact(
  ctx: HookContext<"PreCompact">,
  options: { maxChars?: number; workingSet?: readonly { path: string; reasons: readonly string[] }[] } = {},
): SessionPreCompact | null {
  const input = ctx.input;
  if (ctx.sessionKey === null || typeof input.transcript_path !== "string" || input.transcript_path === "") return null;
  const cwd = typeof input.cwd === "string" ? input.cwd : ctx.projectDir;
  const snapshot = buildSessionSnapshot(input.transcript_path, {
    sessionId: input.session_id,
    cwd,
    trigger: typeof input.trigger === "string" ? input.trigger : null,
    builtBy: "pre-compact",
    budgetBytes: ctx.config().transcript.scanBudgetBytes,
    userRequests: ctx.config().session.userRequests,
    now: ctx.now,
    // Handed over by a workflow that ranked it already, else ranked in the snapshot's own pass: the
    // transcript is read once and the rows are never ranked twice in one PreCompact.
    workingSet: options.workingSet,
    projectDir: ctx.projectDir,
    // The snapshot of this session's previous compaction, or the checkpoint the background Stop
    // hook saved after a later turn: the rows before it are not read again.
    previous: newestSavedSnapshot(ctx.stateDir(), input.session_id),
    ...claudeDirs(ctx.env),
    compactInstructions: typeof input.custom_instructions === "string" ? input.custom_instructions : null,
  });
  writeSessionSnapshot(ctx.stateDir(), snapshot);
  const open = snapshot.tasks.filter(isOpenTask);
  const task = open.find((t) => t.status === "in_progress") ?? open[0];
  // The agent may edit files outside the project; the deny asks to re-read project files only.
  const boundary = projectBoundary(ctx.projectDir);
  const rereadFiles: string[] = [];
  for (const f of snapshot.edited_files) {
    if (rereadFiles.length >= 6) break;
    if (boundary.resolvesInside(f.path, cwd)) rereadFiles.push(f.path);
  }
  return {
    snapshot,
    summaryInstructions: summarizerInstructions(snapshot, {
      maxChars: Math.min(MAX_SUMMARIZER_CHARS, options.maxChars ?? MAX_SUMMARIZER_CHARS),
      mark: sessionMark(ctx.stateDir(), input.session_id, { create: true }),
    }),
    rereadFiles,
    // Our sentence only: the subject is the transcript's text (issue #36, N4).
    rereadReason: task ? OPEN_TASK : "",
  };
}
