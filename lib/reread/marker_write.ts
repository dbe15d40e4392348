import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { sessionKey } from "../state/session_key.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { markerPath, markersDir } from "../state/files.ts";

/** The one-shot re-read marker (`schemas/reread_marker.v1.json`). */
export interface RereadMarker {
  schema_version: 1;
  /** The compacted session; the marker applies to it only. */
  session_id: string;
  /** Which workflow wrote it. */
  session_type: "handler" | "worker" | "project" | "orchestration" | "session";
  /** Shared with the delivery record of the same compaction. */
  compaction_id: string;
  /** PreCompact trigger, when it was one of the two known values. */
  trigger?: "manual" | "auto";
  /** Absolute paths to re-read, in order (at most 50). */
  files: string[];
  /** The redacted text given to the model with the block (at most 10,000 characters). */
  reason: string;
  /** ISO time PreCompact wrote it. */
  created_at: string;
}

/**
 * Writes the one-shot re-read marker of `marker.session_id` to
 * `<stateDir>/markers/<key>.json`, atomically, mode 0600, in a directory
 * created (or tightened) to 0700. A newer compaction simply replaces an
 * unconsumed marker. Returns the path, or null when the session id is not a
 * plain id (nothing is written). Throws when the directory is unsafe or the
 * write fails; hook handlers fail open.
 *
 * @example
 * ```ts
 * writeRereadMarker(ctx.stateDir(), {
 *   schema_version: 1, session_id: "7da37d46-8061-4f75-801e-26383afad198", session_type: "worker",
 *   compaction_id: "m3x1k2-0a1b2c3d4e5f", files: ["/home/a/dispatch/fix-login.md"],
 *   reason: "Context was compacted. Re-read /home/a/dispatch/fix-login.md", created_at: new Date().toISOString(),
 * });
 * ```
 */
export function writeRereadMarker(stateDir: string, marker: RereadMarker): string | null {
  const key = sessionKey(marker.session_id);
  if (key === null) return null;
  ensurePrivateDir(markersDir(stateDir));
  const path = markerPath(stateDir, key);
  writeFileAtomic(path, JSON.stringify(marker) + "\n");
  return path;
}
