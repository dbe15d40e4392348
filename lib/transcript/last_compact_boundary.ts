import type { TranscriptRow } from "./transcript_row.ts";
import { isCompactBoundaryRow } from "./rows.ts";

/** The newest compaction of a transcript, from its `system`/`compact_boundary` row. */
export interface CompactBoundary {
  uuid?: string;
  timestamp?: string;
  /** `"manual"` (`/compact`) or `"auto"`. */
  trigger?: string;
  /** Tokens in the context before the compaction. */
  preTokens?: number;
  /** Tokens right after it; written by newer clients only. */
  postTokens?: number;
  /** The last row before the compaction (the boundary's own `parentUuid` is null). */
  logicalParentUuid?: string;
}

/**
 * Returns the first non-sidechain `system`/`compact_boundary` row of `rows`, which is the newest
 * compaction when `rows` come newest first (as {@linkcode scanTranscript} yields them), or null
 * when there is none. Stops consuming `rows` at the match.
 *
 * @example
 * ```ts
 * import { lastCompactBoundary } from "./last_compact_boundary.ts";
 * import { scanTranscript } from "./scan_transcript.ts";
 *
 * const boundary = lastCompactBoundary(scanTranscript("/tmp/session.jsonl"));
 * if (boundary) console.log(boundary.trigger, boundary.preTokens, boundary.postTokens);
 * ```
 */
export function lastCompactBoundary(rows: Iterable<TranscriptRow>): CompactBoundary | null {
  for (const row of rows) {
    if (!isCompactBoundaryRow(row)) continue;
    const meta = typeof row.compactMetadata === "object" && row.compactMetadata !== null ? row.compactMetadata : {};
    const out: CompactBoundary = {};
    if (typeof row.uuid === "string") out.uuid = row.uuid;
    if (typeof row.timestamp === "string") out.timestamp = row.timestamp;
    if (typeof meta.trigger === "string") out.trigger = meta.trigger;
    if (isCount(meta.preTokens)) out.preTokens = meta.preTokens;
    if (isCount(meta.postTokens)) out.postTokens = meta.postTokens;
    if (typeof row.logicalParentUuid === "string") out.logicalParentUuid = row.logicalParentUuid;
    return out;
  }
  return null;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}
