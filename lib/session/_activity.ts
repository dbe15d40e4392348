/**
 * Private helper of the session layer: which rows are the conversation's own activity (what a
 * snapshot is dated by), as opposed to what the client adds around a compaction (the boundary,
 * the summary, re-attached files, hook output, command caveats) or writes as metadata.
 *
 * @module
 */
import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { isCompactBoundaryRow, isMainChainRow } from "../transcript/rows.ts";
import { scanTranscript } from "../transcript/scan_transcript.ts";
import { toolResults } from "./_results.ts";
import { typedUserText } from "./user_requests.ts";

/**
 * True for a main-chain assistant row, a tool result, or a message the user typed.
 *
 * @example
 * ```ts
 * isActivityRow({ type: "user", message: { role: "user", content: "fix it" } }); // true
 * isActivityRow({ type: "system", subtype: "compact_boundary" }); // false
 * ```
 */
export function isActivityRow(row: TranscriptRow): boolean {
  if (row.type === "assistant") return isMainChainRow(row) && row.message !== undefined;
  if (row.type !== "user") return false;
  return toolResults(row).length > 0 || typedUserText(row) !== undefined;
}

/** The newest activity row's place: what a snapshot built from the rows before it is dated by. */
export interface ActivityMark {
  uuid?: string;
  timestamp?: string;
}

/**
 * The mark of an activity row: its uuid and timestamp, when they look sane.
 *
 * @example
 * ```ts
 * activityMark({ type: "assistant", uuid: "a1", timestamp: "2026-11-21T09:00:00.000Z" });
 * // { uuid: "a1", timestamp: "2026-11-21T09:00:00.000Z" }
 * ```
 */
export function activityMark(row: TranscriptRow): ActivityMark {
  const mark: ActivityMark = {};
  if (typeof row.uuid === "string" && row.uuid !== "" && row.uuid.length <= 128) mark.uuid = row.uuid;
  if (typeof row.timestamp === "string" && row.timestamp.length <= 64) mark.timestamp = row.timestamp;
  return mark;
}

const ATTACHED_FILE_TYPES: ReadonlySet<string> = new Set(["file", "compact_file_reference"]);

/**
 * True when `row` is the activity row `mark` names: its uuid, and its timestamp when the mark
 * kept one. A mark without a uuid names no row.
 *
 * @example
 * ```ts
 * isMarkedRow({ type: "user", uuid: "a1", message: { role: "user", content: "go" } }, { uuid: "a1" }); // true
 * ```
 */
export function isMarkedRow(row: TranscriptRow, mark: ActivityMark): boolean {
  if (mark.uuid === undefined || row.uuid !== mark.uuid || !isActivityRow(row)) return false;
  return mark.timestamp === undefined || row.timestamp === mark.timestamp;
}

/**
 * The file a row re-attaches after a compaction (`attachment` rows of type `file`, or
 * `compact_file_reference` for a file too large to attach), as the transcript names it.
 *
 * @example
 * ```ts
 * attachedFile({ type: "attachment", attachment: { type: "file", filename: "/home/me/app/notes.txt" } }); // "/home/me/app/notes.txt"
 * ```
 */
export function attachedFile(row: TranscriptRow): string | undefined {
  if (row.type !== "attachment") return undefined;
  const a = row.attachment as { type?: unknown; filename?: unknown } | undefined;
  if (typeof a !== "object" || a === null || typeof a.type !== "string" || !ATTACHED_FILE_TYPES.has(a.type)) {
    return undefined;
  }
  return typeof a.filename === "string" && a.filename !== "" ? a.filename : undefined;
}

/** The newest rows of a transcript, down to its newest activity row. */
export interface TranscriptHead {
  /** The newest activity row's mark; undefined when the transcript has none. */
  mark?: ActivityMark;
  /**
   * The files re-attached after a compact boundary newer than every activity row (the boundary is
   * already written), as the transcript names them; undefined when there is no such boundary.
   */
  attached?: string[];
  /**
   * With a `since` mark: true when the activity row it names was found, and every activity row
   * newer than it is a message the user typed (no assistant row, no tool result). Else absent.
   */
  typedSince?: true;
}

/**
 * Reads a transcript backwards down to its newest activity row (at most `budgetBytes`): that row's
 * mark, and the files re-attached after a boundary met before it. Given `since` (the mark of the
 * row a snapshot was dated by), it reads on down to that row while the activity rows it meets are
 * messages the user typed, and says whether they all were (`typedSince`).
 *
 * @example
 * ```ts
 * const head = transcriptHead("/tmp/session.jsonl", 8 << 20);
 * if (head.attached !== undefined) console.log("compacted; re-attached:", head.attached);
 * const since = transcriptHead("/tmp/session.jsonl", 8 << 20, { uuid: "a1b2" });
 * if (since.typedSince) console.log("only typed messages since a1b2");
 * ```
 */
export function transcriptHead(path: string, budgetBytes: number, since?: ActivityMark): TranscriptHead {
  const seen: string[] = [];
  let attached: string[] | undefined;
  let head: TranscriptHead | undefined;
  const want: ActivityMark = since ?? {};
  for (const row of scanTranscript(path, { budgetBytes })) {
    if (head === undefined) {
      if (isActivityRow(row)) {
        head = attached === undefined ? { mark: activityMark(row) } : { mark: activityMark(row), attached };
        if (want.uuid === undefined) return head;
      } else {
        if (attached !== undefined) continue;
        const file = attachedFile(row);
        if (file !== undefined && seen.length < 50) seen.push(file);
        else if (isCompactBoundaryRow(row)) attached = seen;
        continue;
      }
    } else if (!isActivityRow(row)) continue;
    if (isMarkedRow(row, want)) {
      head.typedSince = true;
      return head;
    }
    if (typedUserText(row) === undefined) return head;
  }
  return head ?? (attached === undefined ? {} : { attached });
}
