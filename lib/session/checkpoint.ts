import type { HookContext } from "../hook/handle_hook.ts";
import { buildSessionSnapshot, type SessionSnapshot } from "./snapshot.ts";
import { readSessionSnapshot, writeSessionSnapshot } from "./snapshot_file.ts";
import { claudeDirs } from "./claude_dirs.ts";

/** What {@linkcode saveSessionCheckpoint} did. */
export type SessionCheckpointResult =
  | { saved: true; snapshot: SessionSnapshot }
  | { saved: false; reason: "no-session" | "no-activity" | "unchanged" };

/**
 * The snapshot a new one continues: the session's checkpoint when it is newer than the snapshot
 * saved at the last compaction, else that snapshot; null when there is neither. Both are read
 * with every check of {@linkcode readSessionSnapshot} (`snapshot`: the saved one, when the caller
 * has read it already). A checkpoint written by a Stop hook that finished after a compaction
 * began is older in the transcript than that compaction's snapshot but newer by the clock:
 * continuing it only reads a few more rows, its tasks and files are right up to its own row.
 *
 * @example
 * ```ts
 * const previous = newestSavedSnapshot("/home/me/.local/state/rehydrate", "7da37d46-8061-4f75-801e-26383afad198");
 * console.log(previous?.built_by); // "checkpoint", "pre-compact", "session-start", or undefined
 * ```
 */
export function newestSavedSnapshot(
  stateDir: string,
  sessionId: string,
  snapshot: SessionSnapshot | null = readSessionSnapshot(stateDir, sessionId).snapshot,
): SessionSnapshot | null {
  const checkpoint = readSessionSnapshot(stateDir, sessionId, "checkpoint").snapshot;
  if (checkpoint === null || checkpoint.built_by !== "checkpoint") return snapshot;
  if (snapshot === null) return checkpoint;
  return Date.parse(checkpoint.created_at) > Date.parse(snapshot.created_at) ? checkpoint : snapshot;
}

/**
 * The everyday layer's background checkpoint, run by the Stop hook registered with `"async":
 * true` (nobody waits for it): the task list, the latest typed requests and the edited files as
 * of the transcript's newest activity, saved to `sessions/<key>.checkpoint.json` in the private
 * state directory. Built like PreCompact's snapshot but without ranking the working set or
 * looking for the re-attached files (PreCompact finds its own), and continuing the newest saved
 * snapshot or checkpoint ({@linkcode newestSavedSnapshot}), so each turn reads only the rows since
 * the one before. PreCompact then continues the checkpoint and reads back only to the end of the
 * last turn, not to the previous compaction. Nothing is written when no activity is newer than
 * what it continues. Throws on an unsafe state directory or a
 * failed write: the hook fails open.
 *
 * @example
 * ```ts
 * const r = saveSessionCheckpoint(ctx);
 * ctx.log(r.saved ? `checkpoint: ${r.snapshot.tasks.length} tasks` : `checkpoint: ${r.reason}`);
 * ```
 */
export function saveSessionCheckpoint(ctx: HookContext<"Stop">): SessionCheckpointResult {
  const input = ctx.input;
  if (ctx.sessionKey === null || typeof input.transcript_path !== "string" || input.transcript_path === "") {
    return { saved: false, reason: "no-session" };
  }
  const previous = newestSavedSnapshot(ctx.stateDir(), input.session_id);
  const snapshot = buildSessionSnapshot(input.transcript_path, {
    sessionId: input.session_id,
    cwd: typeof input.cwd === "string" ? input.cwd : ctx.projectDir,
    builtBy: "checkpoint",
    budgetBytes: ctx.config().transcript.scanBudgetBytes,
    userRequests: ctx.config().session.userRequests,
    now: ctx.now,
    // PreCompact ranks the working set on its own rows; a checkpoint keeps none, and the branch
    // is read again when it is used.
    workingSet: [],
    git: null,
    reattachedFiles: false,
    previous,
    ...claudeDirs(ctx.env),
  });
  const last = snapshot.transcript.last_uuid;
  if (last === undefined) return { saved: false, reason: "no-activity" };
  if (previous !== null && previous.transcript.last_uuid === last) return { saved: false, reason: "unchanged" };
  writeSessionSnapshot(ctx.stateDir(), snapshot, "checkpoint");
  return { saved: true, snapshot };
}
