import { DEFAULT_SCAN_BUDGET_BYTES } from "../transcript/scan_transcript.ts";
import { type TranscriptHead, transcriptHead } from "./_activity.ts";
import { shownFileList } from "./_paths.ts";
import { gitBranch } from "./git_branch.ts";
import { buildSessionSnapshot, type BuildSessionSnapshotOptions, type SessionSnapshot } from "./snapshot.ts";
import { readSessionSnapshot, writeSessionSnapshot } from "./snapshot_file.ts";
import { newestSavedSnapshot } from "./checkpoint.ts";

/** Options of {@linkcode currentSessionSnapshot}. */
export interface CurrentSessionSnapshotOptions extends Omit<BuildSessionSnapshotOptions, "builtBy" | "git"> {
  /** Write a rebuilt snapshot back to the state directory. Default true. */
  save?: boolean;
}

/** What {@linkcode currentSessionSnapshot} gives. */
export interface CurrentSessionSnapshot {
  snapshot: SessionSnapshot;
  /** True when it was built now from the transcript (the saved one was missing, unusable or stale). */
  rebuilt: boolean;
  /**
   * True when a rebuild kept the saved snapshot's working set: only messages the user typed were
   * newer than it, so only the rows back to it were read.
   */
  keptWorkingSet: boolean;
  /** A saved snapshot that could not be used, or a rebuilt one that could not be saved (for the debug log). */
  problem: string | null;
}

/**
 * The snapshot SessionStart(compact) should render: the one PreCompact saved when it is still
 * current ({@linkcode snapshotIsCurrent}), else one rebuilt now from the transcript (and saved,
 * `built_by: "session-start"`). Claude Code can compact without running PreCompact (2.1.3xx
 * compacts while idle and may reuse an earlier summary), and an automatic PreCompact can run before
 * the turn's last rows are written: in both cases the transcript has activity newer than the saved
 * snapshot, and the pre-compaction rows are still in it to rebuild from. The branch is read again
 * from `.git/HEAD` either way, as it is now, and when the client has already written the boundary
 * and its re-attached files, those replace the saved prediction (`reattached_source:
 * "transcript"`). Throws only on programming errors; a failed save is reported in `problem`.
 *
 * @example
 * ```ts
 * import { currentSessionSnapshot } from "./current_snapshot.ts";
 * import { renderSessionElement } from "./session_element.ts";
 * const { snapshot } = currentSessionSnapshot("/home/me/.local/state/rehydrate", input.transcript_path, {
 *   sessionId: input.session_id,
 *   cwd: input.cwd,
 * });
 * const text = renderSessionElement(snapshot, { maxChars: 9500 });
 * ```
 */
export function currentSessionSnapshot(
  stateDir: string,
  transcriptPath: string,
  options: CurrentSessionSnapshotOptions,
): CurrentSessionSnapshot {
  const saved = readSessionSnapshot(stateDir, options.sessionId);
  let problem = saved.problem;
  const cwd = options.cwd ?? saved.snapshot?.cwd;
  const git = cwd === undefined ? saved.snapshot?.git ?? null : gitBranch(cwd);
  const since = saved.snapshot?.transcript;
  const head = transcriptHead(
    transcriptPath,
    options.budgetBytes ?? DEFAULT_SCAN_BUDGET_BYTES,
    since === undefined ? undefined : { uuid: since.last_uuid, timestamp: since.last_timestamp },
  );
  if (saved.snapshot !== null && isCurrent(saved.snapshot, head)) {
    const snapshot: SessionSnapshot = { ...saved.snapshot, git };
    if (head.attached !== undefined) {
      snapshot.reattached_files = shownFileList(head.attached.map((raw) => ({ raw })), cwd);
      snapshot.reattached_source = "transcript";
    }
    return { snapshot, rebuilt: false, keptWorkingSet: false, problem };
  }
  const trigger = options.trigger ?? saved.snapshot?.trigger;
  // The saved snapshot, stale as it is, still stands for the rows before its newest activity. When
  // only typed messages came after them (Claude Code 2.1.3xx writes the prompt that set off an
  // automatic compaction after PreCompact read the transcript), its working set stands too: the
  // files were ranked on the same tool calls, and the prompt itself is quoted as the latest request.
  const keep = head.typedSince === true && options.workingSet === undefined;
  const snapshot = buildSessionSnapshot(transcriptPath, {
    ...options,
    trigger,
    builtBy: "session-start",
    git,
    // A full rebuild continues the background Stop hook's checkpoint when it is newer; keeping the
    // working set needs the saved snapshot's (a checkpoint has none).
    previous: keep ? saved.snapshot : newestSavedSnapshot(stateDir, options.sessionId, saved.snapshot),
    keepWorkingSet: keep,
  });
  if (options.save ?? true) {
    try {
      writeSessionSnapshot(stateDir, snapshot);
    } catch (err) {
      problem = (err as Error).message;
    }
  }
  return { snapshot, rebuilt: true, keptWorkingSet: keep && snapshot.transcript.continues !== undefined, problem };
}

/** Options of {@linkcode snapshotIsCurrent}. */
export interface SnapshotIsCurrentOptions {
  /** Most bytes read looking for the newest activity. Default 8 MiB. */
  budgetBytes?: number;
}

/**
 * True when no activity (assistant row, tool result, typed message) in the transcript is newer
 * than what `snapshot` was built from: the newest activity row is the one the snapshot recorded,
 * or the transcript has none (empty, missing or diskless). Rows the client writes around a
 * compaction (boundary, summary, re-attached files, hook output, the `/compact` command) are not
 * activity, so a snapshot built at PreCompact stays current through its compaction. Reads the
 * transcript backwards only to its newest activity row.
 *
 * @example
 * ```ts
 * import { snapshotIsCurrent } from "./current_snapshot.ts";
 * import { readSessionSnapshot } from "./snapshot_file.ts";
 * const { snapshot } = readSessionSnapshot(stateDir, sessionId);
 * if (snapshot !== null && !snapshotIsCurrent(snapshot, transcriptPath)) console.log("stale");
 * ```
 */
export function snapshotIsCurrent(
  snapshot: SessionSnapshot,
  transcriptPath: string,
  options: SnapshotIsCurrentOptions = {},
): boolean {
  return isCurrent(snapshot, transcriptHead(transcriptPath, options.budgetBytes ?? DEFAULT_SCAN_BUDGET_BYTES));
}

function isCurrent(snapshot: SessionSnapshot, head: TranscriptHead): boolean {
  const mark = head.mark;
  if (mark === undefined) return true;
  if (mark.uuid !== undefined) return mark.uuid === snapshot.transcript.last_uuid;
  return mark.timestamp !== undefined && mark.timestamp === snapshot.transcript.last_timestamp;
}
