// The resume injection rule (issue #26, docs/projects.md "Resume"): on SessionStart(resume|fork)
// Claude Code replays the transcript from its last compact boundary, and with it every
// SessionStart or UserPromptSubmit context it recorded (`attachment` rows of type
// `hook_additional_context`, in every client rehydrate supports: 2.1.197 and later). rehydrate
// injects the workspace's document on resume exactly when that replayed part holds none of its own.
import { isCompactBoundaryRow } from "../transcript/rows.ts";
import { containsAny, needle, parseRow, reverseLines, type ReverseLinesStats } from "../transcript/lines.ts";

/** What the replayed part of a transcript holds. */
export type ReplayedContext =
  /** A `<nexus-context>` rehydrate delivered after the last compact boundary (or in a session without one). */
  | "present"
  /** None: the replayed part predates our delivery, or never had one. */
  | "absent"
  /** The scan budget ran out before the last boundary or the start of the file. */
  | "unknown";

const MARK = "<nexus-context version=";
const CHUNK = 65_536;

/**
 * Reads `transcriptPath` backwards, at most `budgetBytes`, down to its newest main-chain
 * `compact_boundary` and says whether the rows after it hold a `<nexus-context>` document
 * delivered by a hook: an `attachment` row of type `hook_additional_context` whose text contains
 * it. Text anywhere else (typed by the user, written by the model, in a tool result or a skill's
 * text) does not count: only the client writes attachment rows. A missing or unreadable
 * transcript replays nothing: `absent`.
 *
 * @example
 * ```ts
 * if (replayedNexusContext(input.transcript_path, 8 << 20) === "absent") {
 *   // inject the workspace's context on this resume
 * }
 * ```
 */
export function replayedNexusContext(transcriptPath: unknown, budgetBytes: number): ReplayedContext {
  if (typeof transcriptPath !== "string" || transcriptPath === "") return "absent";
  const stats: ReverseLinesStats = { bytesRead: 0, reachedStart: false };
  const lines = reverseLines(transcriptPath, budgetBytes, CHUNK, stats);
  const mark = needle(MARK);
  const boundary = [needle('"compact_boundary"')];
  try {
    for (let line = lines.next(); line !== undefined; line = lines.next()) {
      if (line.indexOf(mark) !== -1) {
        const row = parseRow(line);
        if (row !== undefined && deliveredByHook(row)) return "present";
        continue;
      }
      if (containsAny(line, boundary)) {
        const row = parseRow(line);
        if (row !== undefined && isCompactBoundaryRow(row)) return "absent";
      }
    }
  } finally {
    lines.close();
  }
  return stats.reachedStart || stats.bytesRead === 0 ? "absent" : "unknown";
}

/** A hook's context as the client records it, not text a person, the model or a file wrote. */
function deliveredByHook(row: Record<string, unknown>): boolean {
  if (row.isSidechain === true || row.type !== "attachment") return false;
  const a = row.attachment as Record<string, unknown> | undefined;
  return typeof a === "object" && a !== null && a.type === "hook_additional_context" &&
    Array.isArray(a.content) && a.content.some((c) => typeof c === "string" && c.includes(MARK));
}
