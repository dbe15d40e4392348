import type { HookContext } from "../hook/handle_hook.ts";
import { buildSessionSnapshot, type SessionSnapshot } from "./snapshot.ts";
import { writeSessionSnapshot } from "./snapshot_file.ts";
import { MAX_SUMMARIZER_CHARS, summarizerInstructions } from "./summarizer_instructions.ts";
import { isOpenTask } from "./tasks.ts";

/** What {@linkcode sessionPreCompact} saved and asks of the summarizer. */
export interface SessionPreCompact {
  snapshot: SessionSnapshot;
  /** Plain text for the summarizer (at most 1,500 characters); "" when there is nothing to keep. */
  summaryInstructions: string;
  /** The files to re-read when `reread.enforce` is true: the edited ones, newest first (at most 6). */
  rereadFiles: string[];
  /** One line on the open work, for the re-read reason; "" when no task is open. */
  rereadReason: string;
}

/**
 * The everyday layer's PreCompact, in every repository: builds the session snapshot from the
 * transcript tail (open tasks, the user's latest requests, edited files, working set, branch),
 * saves it in the private state directory (never in the repository) and returns the summarizer
 * instructions that ask to keep the open tasks, the latest request and the files by name, within
 * `options.maxChars` (at most 1,500, the default).
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
  options: { maxChars?: number } = {},
): SessionPreCompact | null {
  const input = ctx.input;
  if (ctx.sessionKey === null || typeof input.transcript_path !== "string" || input.transcript_path === "") return null;
  const snapshot = buildSessionSnapshot(input.transcript_path, {
    sessionId: input.session_id,
    cwd: typeof input.cwd === "string" ? input.cwd : ctx.projectDir,
    trigger: typeof input.trigger === "string" ? input.trigger : null,
    builtBy: "pre-compact",
    budgetBytes: ctx.config().transcript.scanBudgetBytes,
    now: ctx.now,
  });
  writeSessionSnapshot(ctx.stateDir(), snapshot);
  const open = snapshot.tasks.filter(isOpenTask);
  const task = open.find((t) => t.status === "in_progress") ?? open[0];
  return {
    snapshot,
    summaryInstructions: summarizerInstructions(snapshot, {
      maxChars: Math.min(MAX_SUMMARIZER_CHARS, options.maxChars ?? MAX_SUMMARIZER_CHARS),
    }),
    rereadFiles: snapshot.edited_files.slice(0, 6).map((f) => f.path),
    rereadReason: task?.subject ? `Your open task: ${JSON.stringify(task.subject.slice(0, 200))}.` : "",
  };
}
